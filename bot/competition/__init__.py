"""Pure competition maths (the ground layer): no Discord, no asyncio, no store."""
