# ruff: noqa: E501 - one sentence a line reads better than wrapped strings
"""Words of house holds (社内押さえ: the venue's own use of a room, held by a manager)."""

from __future__ import annotations

JA: dict[str, str] = {
    "house.tag": "社内押さえ",
    "house.short": "社内",
    "house.quick_not_manager": "「社内」: 社内押さえはマネージャーだけが登録できます。お客様の押さえとしてお申し込みいただくか、マネージャーにご依頼ください。",
    "notice.queued.house.title": ":eyes: あなたの社内押さえの後ろに押さえが入りました",
    "notice.queued.house.body": "{hold}\n{behind}（担当 <@{salesperson}>）が順番待ちしています。社内押さえに期限はありません。会場で使わなくなったら早めに取り下げてください。取り下げると順番待ちの押さえが繰り上がります。",
    "notice.queued.house.text": "社内押さえの後ろに押さえが入りました: {hold}",
    "posted.house": ":house: <@{creator}> さんが *社内押さえ* で押さえました（期限なし）",
    "house.label": "社内押さえ",
    "house.choice": "社内押さえ（フェア・撮影など）",
    "house.choice.hint": "会場の催しで押さえる：期限なし・1番手のみ・取り下げはマネージャー",
    "house.invalid": "社内押さえの選択を読み取れませんでした。チェックを付け直してください。",
    "preview.house": "社内押さえとして受付 · 期限なし（1番手）",
    "house.left": "{state}（社内）",
    "card.house": "*社内押さえ*（期限なし・取り下げはマネージャー）",
    "house.stats": "社内押さえ（別集計）: 登録 {held}・取り下げ {released}",
    "refusal.not_a_manager": "社内押さえはマネージャーだけが登録できます。会場の催し（フェア・撮影・改装など）で部屋を押さえたいときはマネージャーにご依頼ください。お客様の押さえなら「社内押さえ」を外してお申し込みください。",
    "refusal.not_a_manager.hold": "{hold} は社内押さえのため、操作できるのはマネージャーだけです。取り下げはマネージャーにご依頼ください。",
    "refusal.house_not_first": "社内押さえは1番手でしか取れません。この枠にはすでに押さえがあります: {in_way}。別の時間か部屋をお選びいただくか、担当者と調整して空けてからもう一度お試しください。",
    "refusal.house_hold": "{hold} は社内押さえです。期限がないため本予約・延長・催促はできません。会場で使い終えたらマネージャーが取り下げてください。",
    "refusal.enquiry_mismatch.house": "社内押さえは候補日を持てません（案件 {detail}）。別の日も押さえるときは、新しい社内押さえとしてお申し込みください。",
}

EN: dict[str, str] = {
    "house.tag": "house hold",
    "house.short": "house",
    "house.quick_not_manager": "'house': only a manager can make a house hold. Request a customer's hold, or ask a manager.",
    "notice.queued.house.title": ":eyes: A hold is now waiting behind your house hold",
    "notice.queued.house.body": "{hold}\n{behind} (salesperson <@{salesperson}>) is waiting. A house hold has no deadline: if the venue no longer needs the room, release it soon, and the waiting hold moves up.",
    "notice.queued.house.text": "A hold is waiting behind your house hold: {hold}",
    "posted.house": ":house: <@{creator}> took a *house hold* (no deadline)",
    "house.label": "House hold",
    "house.choice": "House hold (fair, shoot, ...)",
    "house.choice.hint": "For the venue's own use: no deadline, 1st only, a manager releases it",
    "house.invalid": "The house hold choice could not be read. Tick it again.",
    "preview.house": "Taken as a house hold · no deadline (1st)",
    "house.left": "{state} (house)",
    "card.house": "*House hold* (no deadline; a manager releases it)",
    "house.stats": "House holds (counted apart): {held} made, {released} released",
    "refusal.not_a_manager": "Only a manager can make a house hold. Ask a manager to hold the room for the venue's own use (a fair, a shoot, works), or leave house hold off to request a customer's hold.",
    "refusal.not_a_manager.hold": "{hold} is a house hold: only a manager can act on it. Ask a manager to release it.",
    "refusal.house_not_first": "A house hold is taken only as 1st, and this slot is already held: {in_way}. Choose another time or room, or agree with their salesperson to free it, then try again.",
    "refusal.house_hold": "{hold} is a house hold: it has no deadline, so it cannot be confirmed, extended or nudged. A manager releases it when the venue is done with the room.",
    "refusal.enquiry_mismatch.house": "A house hold has no candidate dates (enquiry {detail}). To hold another day too, request another house hold.",
}
