// The Discord Embedded App SDK as a module of its own (web/build.mjs): the page
// imports it inside Discord only (signin.ts), by the name the build gives it.
export { DiscordSDK } from "@discord/embedded-app-sdk";
