"""The book's rules as the steps cite them when a choice is refused: one
:class:`RuleRef` per rule, with the section of the Russian rulebook (seed 002) that
states it."""

from __future__ import annotations

from mnrules.errors import RuleRef

BOOK = "002"

RONDEL = RuleRef("rondel", "from the second turn on, the marker moves 1 to 3 spaces "
                 "clockwise free and one resource or coin for each space beyond; it may not "
                 "stay where it is", f"{BOOK} Ход игры 1")
PAY = RuleRef("pay", "a payment of resources of one's choice is made with what one holds "
              "(marble, iron, gold or a coin)", f"{BOOK} Ход игры 1")
PRODUCTION = RuleRef("production", "with the bank out of coins, a nation producing takes "
                     "another resource of its choice instead", f"{BOOK} Производство")
MILITIA = RuleRef("militia", "2 iron a unit, raised in the region of one's city: 1 unit per "
                  "city, 3 with a temple; galleys only where the region has a blue border",
                  f"{BOOK} Militia")
TEMPLUM = RuleRef("templum", "5 marble a temple, at most one per city, 20 in the box",
                  f"{BOOK} Templum")
SCIENTIA = RuleRef("scientia", "a know-how costs gold (the higher price for the first "
                   "nation); know-how in a column is learnt from the bottom up",
                   f"{BOOK} Scientia")
FOUNDING = RuleRef("founding", "a city needs a unit of one's own in the region, 1 marble, "
                   "1 iron and 1 gold (coins for any), one city per region and no neutral "
                   "temple there", f"{BOOK} Ход игры 2")
TRADE = RuleRef("trade", "Mercatura trades 2 resources for 1, Commercium 3 for 2, with the "
                "bank, never for coins and not in the turn the know-how is learnt",
                f"{BOOK} Scientia (Ноу-Хау)")
