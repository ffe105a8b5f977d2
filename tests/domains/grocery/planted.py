"""The grocery model server's stand-ins with a fault planted: a loopback handler both shoppers' LLM-mode tests use (the `planted` fixture is in this folder's conftest)."""

from __future__ import annotations

import json
from typing import Any, ClassVar

from domains.grocery.served import SHOPPER_MODELS
from domains.grocery.user.account_model import ACCOUNT_READER_PROMPT
from domains.grocery.user.model import READER_PROMPT
from tests.loopback import QuietHandler, completion, send_json

__all__ = ["MALFORMED", "Planted"]

# A reading outside the closed topic set, by the reader's prompt (shopping and account shoppers).
MALFORMED = {
    READER_PROMPT: '{"asked": ["mood"], "proposed": [], "confirm": null, "nothing_fits": false}',
    ACCOUNT_READER_PROMPT: (
        '{"asked": ["mood"], "asks_yes": false, "reports": false, "transfer": false, "refuses": []}'
    ),
}


class Planted(QuietHandler):
    """The stand-ins (`taurec-shopper`, both shoppers) with a fault planted (`mode`), served on
    loopback (the account shopper's tests use it too)."""

    mode: ClassVar[str] = "ok"
    leak: ClassVar[str] = ""
    requests: ClassVar[list[dict[str, Any]]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append(body)
        messages = body["messages"]
        content = SHOPPER_MODELS["taurec-shopper"](messages, [], 0).content or ""
        if messages[0]["content"] in MALFORMED:
            if self.mode == "malformed_reader":  # a topic outside the closed set
                content = MALFORMED[messages[0]["content"]]
            elif self.mode == "garbled_reader":
                content = "they asked about my allergies"
            elif self.mode == "inventing_reader":  # an id the message does not name
                content = json.dumps(
                    {"asked": [], "proposed": ["off_0"], "confirm": None, "nothing_fits": False}
                )
        elif self.mode == "leaky_writer":
            content += f" {self.leak}"
        send_json(self, completion(content, body["model"], 10, 5))
