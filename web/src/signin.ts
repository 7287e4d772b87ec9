// Signing in: inside Discord (a frame_id in the query) through the Embedded App
// SDK's authorize, the code exchanged by our server; outside Discord (the offline
// demo) the page's ?user_id=&channel_id= stand in for the SDK, as Discord's
// playground mocks them. Either way the server decides who and where we are.

import type { DiscordSDK } from "@discord/embedded-app-sdk";
import { setTexts } from "./i18n";

export interface Signed {
  session: string;
  expiresAt: number;
  userId: string;
  name: string;
  accessToken: string;
}

export class SignInFailed extends Error {}

interface Config {
  client_id: string | null;
  mock: boolean;
  language: string;
  texts: Record<string, string>;
}

let sdk: DiscordSDK | null = null;

export function inDiscord(): boolean {
  return new URLSearchParams(location.search).has("frame_id");
}

// The SDK is a module of its own (most of the code; web/build.mjs names it, SDK_URL):
// fetched at once inside Discord, beside the sign-in's first request, and never
// outside it (the offline demo).
declare const SDK_URL: string;
const sdkModule = inDiscord() ? (import(SDK_URL) as Promise<typeof import("./sdk")>) : null;

async function post(body: object): Promise<Signed> {
  const answer = await fetch("api/token", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = (await answer.json()) as Record<string, unknown>;
  if (!answer.ok || typeof data.session !== "string") {
    throw new SignInFailed(String(data.error ?? answer.status));
  }
  return {
    session: data.session,
    expiresAt: Number(data.expires_at),
    userId: String(data.user_id),
    name: String(data.name),
    accessToken: typeof data.access_token === "string" ? data.access_token : "",
  };
}

export async function signIn(): Promise<Signed> {
  const lang = encodeURIComponent(navigator.language || "en");
  const configured = fetch(`api/config?lang=${lang}`).then((r) => r.json() as Promise<Config>);
  if (!inDiscord()) {
    // the offline demo: the mock sign-in needs nothing from the config, so both go at
    // once (the server refuses the mock, "mock_off", where it is not allowed)
    const query = new URLSearchParams(location.search);
    const [config, signed] = await Promise.all([
      configured,
      post({
        mock: true,
        user_id: query.get("user_id") ?? "",
        channel_id: query.get("channel_id") ?? "",
        name: query.get("name") ?? "",
      }),
    ]);
    setTexts(config.texts, config.language);
    return signed;
  }
  const config = await configured;
  setTexts(config.texts, config.language);
  if (config.client_id === null) throw new SignInFailed("not_configured");
  if (sdk === null) {
    if (sdkModule === null) throw new SignInFailed("not_configured");
    const { DiscordSDK } = await sdkModule;
    sdk = new DiscordSDK(config.client_id);
    await sdk.ready();
  }
  const { code } = await sdk.commands.authorize({
    client_id: config.client_id,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const signed = await post({ code, instance_id: sdk.instanceId });
  await sdk.commands.authenticate({ access_token: signed.accessToken });
  return signed;
}
