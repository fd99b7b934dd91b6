from games.engine.cards import JOKERS, RANK, SUIT, VALUE, full_deck, hand_total, is_card


def test_codes_are_rank_then_suit_with_t_for_ten() -> None:
    deck = full_deck(2)
    assert "TH" in deck
    assert "AS" in deck
    assert "KC" in deck
    assert "10H" not in deck
    assert {card[1] for card in deck if card not in JOKERS} == set("SHDC")


def test_full_deck_has_54_cards_with_jokers_and_52_without() -> None:
    assert len(set(full_deck(2))) == 54
    assert set(full_deck(2)) - set(full_deck(0)) == {"X1", "X2"}
    assert full_deck(2, 2).count("X3") == 1
    assert full_deck(0, 2).count("AS") == 2
    assert len(set(full_deck(0))) == 52


def test_values() -> None:
    assert VALUE["AS"] == 1
    assert [VALUE[rank + "H"] for rank in "23456789T"] == list(range(2, 11))
    assert VALUE["JD"] == VALUE["QD"] == VALUE["KD"] == 10
    assert VALUE["X1"] == VALUE["X2"] == 0
    assert hand_total(["AS", "X1", "KD", "7C"]) == 18


def test_rank_order_has_the_ace_low_only() -> None:
    assert [RANK[rank + "S"] for rank in "A23456789TJQK"] == list(range(1, 14))
    assert RANK["X1"] == 0
    assert SUIT["9D"] == "D"


def test_is_card() -> None:
    assert is_card("QH")
    assert is_card("X2")
    assert not is_card("1H")
    assert is_card("X4")  # the jokers of a second deck
    assert not is_card("X5")
    assert not is_card(["QH"])
