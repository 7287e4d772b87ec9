"""``python -m bot``: connect to Discord with DISCORD_TOKEN, or run the offline demo."""

from __future__ import annotations

import logging
import sys

from .config import Settings


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    settings = Settings.from_env()
    if "--demo" in args or not settings.token:
        if not settings.token and "--demo" not in args:
            print("No DISCORD_TOKEN set: running the offline demo instead (see README to connect).")
        from .demo import main_demo

        return main_demo(args)
    logging.basicConfig(
        level=getattr(logging, settings.log_level, logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    from .client import create_bot

    bot = create_bot(settings)
    bot.run(str(settings.token), log_handler=None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
