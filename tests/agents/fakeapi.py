"""A fake model API on 127.0.0.1 for driving the real agents offline.

It speaks just enough of four wire formats for a real turn to happen: Anthropic Messages
(``POST /v1/messages``, streamed as SSE), OpenAI Chat Completions (``/v1/chat/completions``),
OpenAI Responses (``/v1/responses``) and Gemini (``…:streamGenerateContent?alt=sse`` and
``…:generateContent``). Every main turn goes the same way, so each agent shows the screens a
user sees: the first answer streams slowly (so the agent is seen ``working``) and asks to run a
shell command (so the agent's own permission prompt appears); once the command's output comes
back, a short text answer ends the turn. A prompt holding the word ``FAIL`` gets an HTTP 400
(not retried by any of the agents, unlike a 5xx), which is how a failed turn is made.

Side requests the agents make (titles, token counts, routing, model lists) get small, quick,
valid answers. Nothing here is a model: the point is the agents' screens, not their answers.

Run alone for experiments: ``python tests/agents/fakeapi.py [PORT]`` (0 picks a free one).
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

#: The command every agent is asked to run (harmless, not on any agent's "known safe" list).
COMMAND = "date > hmux-fake-stamp.txt && echo stamped"
ANSWER = "The command ran and wrote hmux-fake-stamp.txt. Anything else?"
#: Seconds between streamed pieces of the first answer (the agent is "working" meanwhile).
SLOW = 0.4
PIECES = ("Let me ", "check that ", "by running ", "a command ", "first.")
FAIL_WORD = "FAIL"


def _text_of(value: Any) -> str:
    """All text in a message content of any of the formats (string, parts, blocks)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return " ".join(_text_of(v) for v in value)
    if isinstance(value, dict):
        out = []
        for k in ("text", "content", "output", "input_text"):
            if k in value:
                out.append(_text_of(value[k]))
        return " ".join(out)
    return ""


class Turn:
    """What to answer to one request: ``tool``, ``answer``, ``fail`` or ``side``."""

    def __init__(self, kind: str, tool_name: str = "", schema: dict[str, Any] | None = None):
        self.kind = kind
        self.tool_name = tool_name
        self.schema = schema or {}

    def command_args(self) -> dict[str, Any]:
        """Arguments for the shell tool, shaped by its schema (string or argv list)."""
        props = self.schema.get("properties", {}) if isinstance(self.schema, dict) else {}
        args: dict[str, Any] = {}
        if "cmd" in props:  # Codex's exec_command
            args["cmd"] = COMMAND
        else:
            cmd = props.get("command", {})
            if cmd.get("type") == "array":
                args["command"] = ["bash", "-lc", COMMAND]
            else:
                args["command"] = COMMAND
        if "description" in props:
            args["description"] = "Write the date to a file"
        if "justification" in props:
            args["justification"] = "The user asked to run it"
        if "sandbox_permissions" in props:  # Codex: ask to leave the sandbox, so it asks
            args["sandbox_permissions"] = "require_escalated"
        if "with_escalated_permissions" in props:
            args["with_escalated_permissions"] = True
        return args


SHELL_TOOLS = ("bash", "shell", "shell_command", "exec_command", "run_shell_command",
               "local_shell", "execute_bash", "run_command")


def decide(last_user: str, tool_result: bool, tools: list[tuple[str, dict[str, Any]]]) -> Turn:
    if FAIL_WORD in last_user:
        return Turn("fail")
    if tool_result:
        return Turn("answer")
    if not tools:
        return Turn("side")
    for want in SHELL_TOOLS:
        for name, schema in tools:
            if name.lower() == want:
                return Turn("tool", name, schema)
    return Turn("answer")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: FakeAPI

    def log_message(self, fmt: str, *args: Any) -> None:  # quiet; requests go to the log list
        pass

    # -- plumbing ----------------------------------------------------------------------------------

    def _body(self) -> dict[str, Any]:
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        if self.headers.get("Content-Encoding") == "gzip":
            import gzip
            raw = gzip.decompress(raw)
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {}
        return body if isinstance(body, dict) else {}

    def _json(self, code: int, obj: Any) -> None:
        data = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _sse_start(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

    def _sse(self, data: Any, event: str | None = None) -> None:
        chunk = (f"event: {event}\n" if event else "") + "data: " + (
            data if isinstance(data, str) else json.dumps(data)) + "\n\n"
        self.wfile.write(chunk.encode())
        self.wfile.flush()

    def _record(self, kind: str, path: str, turn: Turn | None) -> None:
        self.server.log.append((time.time(), kind, path,
                                (turn.kind + (":" + turn.tool_name if turn.tool_name else ""))
                                if turn else ""))

    # -- routes ------------------------------------------------------------------------------------

    def do_HEAD(self) -> None:  # noqa: N802
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self) -> None:  # noqa: N802
        path = self.path.split("?")[0]
        self._record("get", path, None)
        if path.endswith("/models"):
            self._json(200, {"object": "list", "data": [
                {"id": m, "object": "model", "type": "model", "display_name": m,
                 "created": 0, "created_at": "2025-01-01T00:00:00Z", "owned_by": "fake"}
                for m in self.server.models]})
        elif "/models/" in path:
            name = path.rsplit("/", 1)[-1]
            self._json(200, {"id": name, "object": "model", "name": "models/" + name})
        else:
            self._json(200, {})

    def do_POST(self) -> None:  # noqa: N802
        path = self.path.split("?")[0]
        body = self._body()
        if self.server.dump is not None:
            self.server.dump.append((path, body))
        if self.server.dump_path:
            with open(self.server.dump_path, "a") as f:
                f.write(json.dumps({"path": path, "body": body}) + "\n")
        if path.endswith("/messages/count_tokens"):
            self._record("anthropic", path, None)
            return self._json(200, {"input_tokens": 42})
        if path.endswith("/messages"):
            return self.anthropic(body, path)
        if path.endswith("/chat/completions"):
            return self.chat(body, path)
        if path.endswith("/responses"):
            return self.openai_responses(body, path)
        if ":streamGenerateContent" in path or ":generateContent" in path:
            return self.gemini(body, path)
        if ":countTokens" in path:
            return self._json(200, {"totalTokens": 42})
        self._record("other", path, None)
        self._json(200, {})

    # -- Anthropic Messages ------------------------------------------------------------------------

    def anthropic(self, body: dict[str, Any], path: str) -> None:
        msgs = body.get("messages") or []
        last = msgs[-1] if msgs else {}
        content = last.get("content")
        tool_result = isinstance(content, list) and any(
            isinstance(b, dict) and b.get("type") == "tool_result" for b in content)
        tools = [(t.get("name", ""), t.get("input_schema", {})) for t in body.get("tools") or []
                 if isinstance(t, dict)]
        turn = decide(_text_of(content) if last.get("role") == "user" else "", tool_result, tools)
        self._record("anthropic", path, turn)
        model = body.get("model", "fake-model")
        if turn.kind == "fail":
            return self._json(400, {"type": "error", "error": {
                "type": "invalid_request_error", "message": "fake API: this turn fails"}})
        if not body.get("stream"):
            text = "Fake title" if turn.kind == "side" else ANSWER
            return self._json(200, {
                "id": "msg_" + uuid.uuid4().hex, "type": "message", "role": "assistant",
                "model": model, "content": [{"type": "text", "text": text}],
                "stop_reason": "end_turn", "stop_sequence": None,
                "usage": {"input_tokens": 10, "output_tokens": 5}})
        self._sse_start()
        mid = "msg_" + uuid.uuid4().hex
        self._sse({"type": "message_start", "message": {
            "id": mid, "type": "message", "role": "assistant", "model": model, "content": [],
            "stop_reason": None, "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 1}}}, "message_start")
        slow = turn.kind == "tool"
        text_pieces = PIECES if turn.kind == "tool" else (
            ("Fake title",) if turn.kind == "side" else (ANSWER,))
        self._sse({"type": "content_block_start", "index": 0,
                   "content_block": {"type": "text", "text": ""}}, "content_block_start")
        for piece in text_pieces:
            if slow:
                time.sleep(SLOW)
            self._sse({"type": "content_block_delta", "index": 0,
                       "delta": {"type": "text_delta", "text": piece}}, "content_block_delta")
        self._sse({"type": "content_block_stop", "index": 0}, "content_block_stop")
        stop = "end_turn"
        if turn.kind == "tool":
            stop = "tool_use"
            self._sse({"type": "content_block_start", "index": 1, "content_block": {
                "type": "tool_use", "id": "toolu_" + uuid.uuid4().hex[:20], "name": turn.tool_name,
                "input": {}}}, "content_block_start")
            self._sse({"type": "content_block_delta", "index": 1, "delta": {
                "type": "input_json_delta", "partial_json": json.dumps(turn.command_args())}},
                "content_block_delta")
            self._sse({"type": "content_block_stop", "index": 1}, "content_block_stop")
        self._sse({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                   "usage": {"output_tokens": 12}}, "message_delta")
        self._sse({"type": "message_stop"}, "message_stop")

    # -- OpenAI Chat Completions -------------------------------------------------------------------

    def chat(self, body: dict[str, Any], path: str) -> None:
        msgs = body.get("messages") or []
        last = msgs[-1] if msgs else {}
        tool_result = last.get("role") == "tool"
        tools = []
        for t in body.get("tools") or []:
            fn = t.get("function", {}) if isinstance(t, dict) else {}
            tools.append((fn.get("name", ""), fn.get("parameters", {})))
        user = _text_of(last.get("content")) if last.get("role") == "user" else ""
        turn = decide(user, tool_result, tools)
        if self.server.fenced_command and not tools and turn.kind != "fail":
            # aider: no tools; a fenced shell block is how it is asked to run a command, and
            # the command's output comes back as a user message.
            turn = Turn("answer" if self._ran_command(msgs) else "fenced")
        self._record("chat", path, turn)
        model = body.get("model", "fake-model")
        if turn.kind == "fail":
            return self._json(400, {"error": {"message": "fake API: this turn fails",
                                              "type": "invalid_request_error", "code": None}})
        cid = "chatcmpl-" + uuid.uuid4().hex

        def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
            return {"id": cid, "object": "chat.completion.chunk", "created": int(time.time()),
                    "model": model, "choices": [{"index": 0, "delta": delta,
                                                 "finish_reason": finish}]}

        if not body.get("stream"):
            return self._json(200, {
                "id": cid, "object": "chat.completion", "created": int(time.time()),
                "model": model, "choices": [{"index": 0, "finish_reason": "stop", "message": {
                    "role": "assistant", "content": "Fake title"}}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})
        self._sse_start()
        self._sse(chunk({"role": "assistant", "content": ""}))
        if turn.kind in ("tool", "fenced"):
            for piece in PIECES:
                time.sleep(SLOW)
                self._sse(chunk({"content": piece}))
        if turn.kind == "tool":
            self._sse(chunk({"tool_calls": [{
                "index": 0, "id": "call_" + uuid.uuid4().hex[:20], "type": "function",
                "function": {"name": turn.tool_name,
                             "arguments": json.dumps(turn.command_args())}}]}))
            finish = "tool_calls"
        elif turn.kind == "fenced":
            self._sse(chunk({"content": "\n\n```bash\n" + COMMAND + "\n```\n"}))
            finish = "stop"
        else:
            self._sse(chunk({"content": "Fake title" if turn.kind == "side" else ANSWER}))
            finish = "stop"
        final = chunk({}, finish)
        final["usage"] = {"prompt_tokens": 10, "completion_tokens": 12, "total_tokens": 22}
        self._sse(final)
        self._sse("[DONE]")

    @staticmethod
    def _ran_command(msgs: list[Any]) -> bool:
        return any(isinstance(m, dict) and m.get("role") == "user"
                   and "stamped" in _text_of(m.get("content")) for m in msgs)

    # -- OpenAI Responses --------------------------------------------------------------------------

    def openai_responses(self, body: dict[str, Any], path: str) -> None:
        items = body.get("input") or []
        if isinstance(items, str):
            items = [{"type": "message", "role": "user", "content": items}]
        last = items[-1] if items else {}
        tool_result = isinstance(last, dict) and last.get("type", "").endswith("_output")
        tools = []
        for t in body.get("tools") or []:
            if isinstance(t, dict):
                tools.append((t.get("name") or t.get("type", ""), t.get("parameters", {})))
        user = ""
        if isinstance(last, dict) and last.get("role") == "user":
            user = _text_of(last.get("content"))
        turn = decide(user, tool_result, tools)
        self._record("responses", path, turn)
        model = body.get("model", "fake-model")
        if turn.kind == "fail":
            return self._json(400, {"error": {"message": "fake API: this turn fails",
                                              "type": "invalid_request_error", "code": None}})
        rid = "resp_" + uuid.uuid4().hex
        resp = {"id": rid, "object": "response", "created_at": int(time.time()),
                "model": model, "status": "in_progress", "output": []}
        self._sse_start()
        seq = [0]

        def ev(kind: str, **fields: Any) -> None:
            seq[0] += 1
            self._sse({"type": kind, "sequence_number": seq[0], **fields}, kind)

        ev("response.created", response=resp)
        ev("response.in_progress", response=resp)
        outputs = []
        mid = "msg_" + uuid.uuid4().hex
        text = "".join(PIECES) if turn.kind == "tool" else ANSWER
        msg_item = {"id": mid, "type": "message", "role": "assistant", "status": "in_progress",
                    "content": []}
        ev("response.output_item.added", output_index=0, item=msg_item)
        ev("response.content_part.added", item_id=mid, output_index=0, content_index=0,
           part={"type": "output_text", "text": "", "annotations": []})
        for piece in (PIECES if turn.kind == "tool" else (ANSWER,)):
            if turn.kind == "tool":
                time.sleep(SLOW)
            ev("response.output_text.delta", item_id=mid, output_index=0, content_index=0,
               delta=piece)
        ev("response.output_text.done", item_id=mid, output_index=0, content_index=0, text=text)
        done_msg = {**msg_item, "status": "completed",
                    "content": [{"type": "output_text", "text": text, "annotations": []}]}
        ev("response.output_item.done", output_index=0, item=done_msg)
        outputs.append(done_msg)
        if turn.kind == "tool":
            fid = "fc_" + uuid.uuid4().hex
            item = {"id": fid, "type": "function_call", "status": "completed",
                    "call_id": "call_" + uuid.uuid4().hex[:20], "name": turn.tool_name,
                    "arguments": json.dumps(turn.command_args())}
            ev("response.output_item.added", output_index=1, item={**item, "arguments": ""})
            ev("response.function_call_arguments.done", item_id=fid, output_index=1,
               arguments=item["arguments"])
            ev("response.output_item.done", output_index=1, item=item)
            outputs.append(item)
        ev("response.completed", response={**resp, "status": "completed", "output": outputs,
                                           "usage": {"input_tokens": 10, "output_tokens": 12,
                                                     "total_tokens": 22,
                                                     "input_tokens_details": {"cached_tokens": 0},
                                                     "output_tokens_details":
                                                         {"reasoning_tokens": 0}}})

    # -- Gemini ------------------------------------------------------------------------------------

    def gemini(self, body: dict[str, Any], path: str) -> None:
        contents = body.get("contents") or []
        last = contents[-1] if contents else {}
        parts = last.get("parts") or [] if isinstance(last, dict) else []
        tool_result = any(isinstance(p, dict) and "functionResponse" in p for p in parts)
        tools = []
        for t in body.get("tools") or []:
            for fd in (t.get("functionDeclarations") or []) if isinstance(t, dict) else []:
                tools.append((fd.get("name", ""), fd.get("parametersJsonSchema")
                              or fd.get("parameters") or {}))
        user = _text_of(parts) if last.get("role", "user") == "user" else ""
        turn = decide(user, tool_result, tools)
        self._record("gemini", path, turn)
        if turn.kind == "fail":
            return self._json(400, {"error": {"code": 400, "message": "fake API: this turn fails",
                                              "status": "INVALID_ARGUMENT"}})
        usage = {"promptTokenCount": 10, "candidatesTokenCount": 12, "totalTokenCount": 22}

        def cand(parts: list[dict[str, Any]], finish: str | None = None) -> dict[str, Any]:
            c: dict[str, Any] = {"content": {"role": "model", "parts": parts}, "index": 0}
            if finish:
                c["finishReason"] = finish
            return {"candidates": [c], "usageMetadata": usage, "modelVersion": "fake-gemini"}

        if ":generateContent" in path:  # side calls (routing, next speaker): a JSON-ish answer
            schema = (body.get("generationConfig") or {}).get("responseJsonSchema") or (
                body.get("generationConfig") or {}).get("responseSchema")
            text = json.dumps(_fill(schema)) if schema else "ok"
            return self._json(200, cand([{"text": text}], "STOP"))
        self._sse_start()
        if turn.kind == "tool":
            for piece in PIECES:
                time.sleep(SLOW)
                self._sse(cand([{"text": piece}]))
            self._sse(cand([{"functionCall": {"name": turn.tool_name,
                                              "args": turn.command_args()}}], "STOP"))
        else:
            self._sse(cand([{"text": ANSWER if turn.kind != "side" else "ok"}], "STOP"))


def _fill(schema: Any) -> Any:
    """A value matching a JSON schema, for structured side calls (Gemini's router asks for
    ``{"reasoning": …, "model_choice": "flash"}``, its next-speaker check for ``user``)."""
    if not isinstance(schema, dict):
        return "ok"
    t = str(schema.get("type", "object")).lower()
    if "enum" in schema and schema["enum"]:
        vals = list(schema["enum"])
        for pref in ("user", "flash"):
            if pref in vals:
                return pref
        return vals[0]
    if t == "object":
        return {k: _fill(v) for k, v in (schema.get("properties") or {}).items()}
    if t == "array":
        return []
    if t in ("number", "integer"):
        return 0
    if t == "boolean":
        return False
    return "ok"


class FakeAPI(ThreadingHTTPServer):
    """The server; ``log`` lists (time, format, path, turn kind) of every request."""

    daemon_threads = True

    def __init__(self, port: int = 0, fenced_command: bool = False,
                 dump: str | None = None) -> None:
        super().__init__(("127.0.0.1", port), Handler)
        self.log: list[tuple[float, str, str, str]] = []
        self.dump: list[tuple[str, dict[str, Any]]] | None = None
        self.models = ("fake-model", "claude-sonnet-4-5", "gpt-5", "gemini-2.5-pro")
        self.fenced_command = fenced_command
        #: a file every request body is appended to (JSON lines), for working out a new release
        self.dump_path = dump or os.environ.get("HMUX_FAKEAPI_DUMP")
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def start(self) -> FakeAPI:
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.shutdown()
        self.server_close()


if __name__ == "__main__":
    api = FakeAPI(int(sys.argv[1]) if len(sys.argv) > 1 else 0,
                  fenced_command="--fenced" in sys.argv)
    print(api.url, flush=True)
    try:
        api.serve_forever()
    except KeyboardInterrupt:
        pass
