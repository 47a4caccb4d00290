"""The Slack stand-in's file uploads, as Slack documents them (files.getUploadURLExternal,
the upload URL, files.completeUploadExternal): what ``WebClient.files_upload_v2`` does.

1. ``files.getUploadURLExternal`` (``filename``, ``length`` in bytes; ``alt_txt`` at most 1,000
   characters) answers an ``upload_url`` and a ``file_id``; a missing or bad argument is
   ``invalid_arguments``, a long ``alt_txt`` ``alt_txt_too_large``.
2. The file's bytes are POSTed to the upload URL, which answers ``200 OK - <length>`` in plain
   text; an upload URL that was never issued, or was used already, answers 404.
3. ``files.completeUploadExternal`` (``files``: a JSON array of ``{"id", "title"}``; optional
   ``channel_id`` or ``channels``, ``initial_comment``, ``thread_ts``) shares the files: a file
   id never issued, or whose bytes never arrived, is ``file_not_found``; an unknown channel
   ``channel_not_found``; a bad ``files`` value ``invalid_arguments``. Shared, the files appear
   in the channel as one message whose text is the initial comment.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from typing import Any

from tests.support.slack_limits import Refusal

ALT_TEXT_MAX = 1000
UPLOAD_PATH = "/upload/v1/"


@dataclass
class Upload:
    file_id: str
    filename: str
    length: int
    alt_txt: str
    data: bytes | None = None  # the bytes POSTed to its upload URL
    title: str = ""
    shares: list[tuple[str, str]] = field(default_factory=list)  # (channel, message ts)


class FileUploads:
    """Mixed into the stand-in's workspace: the uploads it holds and the two methods."""

    root_url: str
    _cond: Any

    def reset_files(self) -> None:
        self._uploads: dict[str, Upload] = {}  # by file id
        self._upload_tokens: dict[str, str] = {}  # upload URL token -> file id (until used)

    def file_handlers(self) -> dict[str, Any]:
        return {
            "files.getUploadURLExternal": self._get_upload_url,
            "files.completeUploadExternal": self._complete_upload,
        }

    def uploads(self) -> list[Upload]:
        """Every file asked for, in the order asked."""
        with self._cond:
            return list(self._uploads.values())

    # ------------------------------------------------------------------ methods

    def _get_upload_url(self, body: dict[str, Any]) -> dict[str, Any]:
        filename = str(body.get("filename") or "").strip()
        length = str(body.get("length") or "").strip()
        if not filename or not length.isdigit() or int(length) <= 0:
            raise Refusal("invalid_arguments")
        alt_txt = str(body.get("alt_txt") or "")
        if len(alt_txt) > ALT_TEXT_MAX:
            raise Refusal("alt_txt_too_large")
        file_id = "F" + secrets.token_hex(5).upper()
        token = secrets.token_urlsafe(12)
        self._uploads[file_id] = Upload(file_id, filename, int(length), alt_txt)
        self._upload_tokens[token] = file_id
        return {
            "ok": True,
            "upload_url": f"{self.root_url}{UPLOAD_PATH}{token}",
            "file_id": file_id,
        }

    def receive_upload(self, path: str, raw: bytes) -> tuple[int, str]:
        """A POST to an upload URL: (HTTP status, plain-text body)."""
        with self._cond:
            file_id = self._upload_tokens.pop(path.removeprefix(UPLOAD_PATH), None)
            if file_id is None:
                return 404, "Not Found"
            self._uploads[file_id].data = raw
            return 200, f"OK - {len(raw)}"

    def _complete_upload(self, body: dict[str, Any]) -> dict[str, Any]:
        files = body.get("files")
        if isinstance(files, str):
            try:
                files = json.loads(files)
            except ValueError:
                raise Refusal("invalid_arguments") from None
        if not isinstance(files, list) or not files:
            raise Refusal("invalid_arguments")
        if not all(isinstance(f, dict) and f.get("id") for f in files):
            raise Refusal("invalid_arguments")
        found = [self._uploads.get(str(f["id"])) for f in files]
        ready = [u for u in found if u is not None and u.data is not None]
        if len(ready) != len(files):
            raise Refusal("file_not_found")
        channels = self._share_channels(body)
        for upload, asked in zip(ready, files, strict=True):
            upload.title = str(asked.get("title") or upload.filename)
        for channel in channels:
            ts = self.post_files(channel, str(body.get("initial_comment") or ""), ready)
            for upload in ready:
                upload.shares.append((channel, ts))
        return {"ok": True, "files": [self._file_object(u) for u in ready]}

    def _share_channels(self, body: dict[str, Any]) -> list[str]:
        named = [str(body.get("channel_id") or "").strip()]
        named += [c.strip() for c in str(body.get("channels") or "").split(",")]
        channels = [c for c in named if c]
        for channel in channels:
            self._writable_channel({"channel": channel}, allow_user=True)
        return [self.resolve_channel(c) for c in channels]

    def post_files(self, channel: str, comment: str, files: list[Upload]) -> str:
        """The message that shows shared files in a channel (its text: the comment)."""
        ts: str = self._next_ts()
        message = {
            "type": "message",
            "ts": ts,
            "text": comment,
            "files": [{"id": u.file_id, "name": u.filename, "title": u.title} for u in files],
            "upload": True,
        }
        self._messages[channel][ts] = message
        return ts

    def _file_object(self, upload: Upload) -> dict[str, Any]:
        return {
            "id": upload.file_id,
            "name": upload.filename,
            "title": upload.title,
            "size": len(upload.data or b""),
            "alt_txt": upload.alt_txt,
        }
