"""Every search form docs/search.md shows, with the game it is typed on (issue 19): the
language table, the folding and value examples, the fields every game has and each game's
examples. ``bench/scale.py`` times each form at 211,000 printings;
``tests/catalog/test_query_indexes.py`` checks each form's plans.
"""

from __future__ import annotations

DOCUMENTED_FORMS: tuple[tuple[str, str], ...] = (
    # the language table
    ("unmatched", "kestrel"),
    ("unmatched", "ケストレル"),
    ("unmatched", "けすとれる"),
    ("unmatched", '"night guard"'),
    ("unmatched", "「ナイト ガード」"),
    ("unmatched", "value>=3"),
    ("ouka-fushin", "school:goton"),
    ("unmatched", "-type:scheme"),
    ("unmatched", "boost:2 or boost:3"),
    ("unmatched", "(boost:2 or boost:3) -type:scheme"),
    ("unmatched", "order:value dir:desc"),
    ("unmatched", "unique:prints"),
    # folding
    ("unmatched", "ナイト・ガード"),
    ("unmatched", "ないとがーど"),
    ("unmatched", "ﾅｲﾄｶﾞｰﾄﾞ"),
    ("monster-hunter", "kutku"),
    ("unmatched", "ｖａｌｕｅ＞＝３"),
    # values by code or label
    ("ouka-fushin", "school:五遁"),
    ("ouka-fushin", 'school:"Five Escapes"'),
    ("mattsan", "type:unit"),
    ("mattsan", "type:ユニット"),
    ("monster-hunter", "weapon:great-sword"),
    ("monster-hunter", "weapon:大剣"),
    ("recharge", "special:yes"),
    ("recharge", "special:はい"),
    # fields every game has
    ("unmatched", "name:guard"),
    ("unmatched", "set:cobble-fog"),
    ("unmatched", "type:attack"),
    ("unmatched", "is:demo"),
    ("monster-hunter", "is:owned"),
    ("monster-hunter", "is:missing"),
    ("monster-hunter", "is:free"),
    ("unmatched", "set:cobble-fog boost:3"),
    # each game's examples
    ("unmatched", "value>=3 -type:scheme"),
    ("unmatched", "(boost:2 or boost:3) fighter:alice"),
    ("unmatched", "set:cobble-fog order:value dir:desc"),
    ("unmatched", "fighter:alice"),
    ("unmatched", "hp>=15"),
    ("unmatched", "move:2"),
    ("monster-hunter", "type:monster rank<=2"),
    ("monster-hunter", "weapon:great-sword or weapon:long-sword"),
    ("monster-hunter", "item:meat -type:hunter"),
    ("monster-hunter", "hp>=20"),
    ("monster-hunter", "reach:2"),
    ("monster-hunter", "attack>=7"),
    ("monster-hunter", "cost<=1"),
    ("ouka-fushin", "school:goton destiny>=2"),
    ("ouka-fushin", "keyword:仙人 type:story"),
    ("ouka-fushin", "太公望 or 哪吒"),
    ("ouka-fushin", "points>=2"),
    ("recharge", "colour:red power>=50"),
    ("recharge", "edge:left-blue -special:yes"),
    ("recharge", "type:power order:power dir:desc"),
    ("mattsan", "type:unit hp>5"),
    ("mattsan", "soul<=1 family:商店街"),
    ("mattsan", "rarity:5 unique:prints"),
    ("mattsan", "cost>=2"),
)
