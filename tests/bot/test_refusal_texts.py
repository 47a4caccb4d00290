"""The refusals and warnings of packages and candidate dates quote typed text escaped, as
every refusal does: a room or customer named ``<!channel>`` notifies no one in mrkdwn or in a
message's fallback text."""

from __future__ import annotations

from bot.texts.refusals import describe, describe_warning
from core.results import Code, Refused, RequestWarning, WarningCode
from tests.bot import samples
from tests.support.factories import JST

TYPED = "<!channel> 山田様 & <@U0MANAGER1>"
ESCAPED = "&lt;!channel&gt; 山田様 &amp; &lt;@U0MANAGER1&gt;"


def test_the_room_a_package_refusal_names_is_escaped() -> None:
    refused = Refused(Code.RANK_TOO_LOW, rank=3, limit=2, room="hoo", room_name=TYPED)
    for locale in ("ja", "en"):
        said = describe(refused, JST, locale)
        assert said.startswith(ESCAPED) and "<!channel>" not in said


def test_rooms_that_overlap_in_one_package_are_both_escaped() -> None:
    refused = Refused(Code.ITEMS_OVERLAP, field="room", detail=TYPED, room="a", room_name="<b>")
    said = describe(refused, JST, "en")
    assert "&lt;b&gt; overlaps " + ESCAPED in said
    assert "<" not in said.replace("&lt;", "")


def test_an_enquiry_of_another_customer_quotes_its_name_escaped() -> None:
    refused = Refused(Code.ENQUIRY_MISMATCH, field="customer", detail=TYPED)
    said = describe(refused, JST, "ja")
    assert ESCAPED in said and "<!channel>" not in said
    kind = Refused(Code.ENQUIRY_MISMATCH, field="kind", detail="banquet")
    assert "宴会" in describe(kind, JST, "ja")  # the kind in words, not escaped as typed


def test_the_candidates_listed_and_the_same_customer_warning_are_escaped() -> None:
    live = (samples.hold(customer=TYPED), samples.waiting(room_name=TYPED))
    refused = Refused(Code.TOO_MANY_CANDIDATES, holders=live, limit=2)
    said = describe(refused, JST, "en")
    assert said.count(ESCAPED) == 2 and "<!channel>" not in said
    warning = RequestWarning(WarningCode.SAME_CUSTOMER, TYPED, live)
    warned = describe_warning(warning, JST, "ja")
    assert warned.count(ESCAPED) == 3 and "<!channel>" not in warned
