"""The ledger leaving osae and coming in: the 予約台帳 layout, its xlsx and CSV files, the
calendar feeds (iCalendar) and the reader of a venue's own ledger. Language-free: the layout's
headers are the layout itself (Japanese, as a venue's 台帳 has them); the words for a hold's
state are the caller's."""
