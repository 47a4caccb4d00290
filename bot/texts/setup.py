"""Texts of a venue's setup in Slack and of many workspaces (issue 29), ja and en."""

from __future__ import annotations

JA: dict[str, str] = {
    # Without an installation there is no token to ask a user's language: both, Japanese first.
    "error.not_installed": (
        "osae はこのワークスペースにインストールされていない（または削除された）ため、"
        "受け付けられません。"
        "続けて使うには、管理者に osae を Slack に追加し直すよう依頼してください。\n"
        "osae is not installed in this workspace (or was removed), so nothing was done. "
        "Ask an admin to add osae to Slack again."
    ),
}

EN: dict[str, str] = {
    "error.not_installed": JA["error.not_installed"],
}
