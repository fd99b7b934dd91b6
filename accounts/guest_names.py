# ruff: noqa: RUF001 (Hebrew letters that look like Latin ones are Hebrew here)
"""The words of generated guest names, per language (accounts/services.py guest_name_generate):
an adjective and an animal, then a number, in each language's own order and script.

Hebrew puts the adjective after its noun and makes it agree: the animals are all masculine
nouns and the adjectives their masculine forms ("ינשוף אמיץ 42"). Nepali and Hindi put the
adjective first ("बहादुर बाघ 42"); their animals are masculine too, for the adjectives that
inflect (रमाइलो, फुर्तीला). Every name fits a display name (32 characters).
"""

from __future__ import annotations

from typing import NamedTuple


class GuestWords(NamedTuple):
    adjectives: tuple[str, ...]
    animals: tuple[str, ...]
    animal_first: bool = False


GUEST_WORDS: dict[str, GuestWords] = {
    "en": GuestWords(
        (
            "Brave", "Calm", "Clever", "Cosmic", "Daring", "Eager", "Fancy", "Gentle", "Happy",
            "Jolly", "Lucky", "Mellow", "Merry", "Nimble", "Plucky", "Quick", "Quiet", "Sly",
            "Sunny", "Swift", "Witty", "Zesty",
        ),
        (
            "Badger", "Camel", "Dolphin", "Falcon", "Fox", "Gecko", "Heron", "Ibex", "Koala",
            "Lemur", "Lynx", "Marmot", "Otter", "Owl", "Panda", "Puffin", "Raven", "Seal", "Tiger",
            "Walrus", "Wombat", "Yak",
        ),
    ),
    "he": GuestWords(
        (
            "אמיץ", "רגוע", "חכם", "נועז", "נלהב", "עדין", "שמח", "עליז", "בר מזל", "זריז",
            "שקט", "ערמומי", "מהיר", "שנון", "חייכן", "קוסמי", "אגדי", "נחוש", "סקרן", "חביב",
            "מתוק", "שובב", "זוהר", "נדיב", "אדיב",
        ),
        (
            "אריה", "נמר", "דוב", "שועל", "ינשוף", "דולפין", "פינגווין", "קנגורו", "זאב", "עורב",
            "נשר", "בז", "גמל", "פיל", "סנאי", "קיפוד", "תוכי", "צב", "ארנב", "יען", "חתול",
            "סוס",
        ),
        animal_first=True,
    ),
    "ne": GuestWords(
        (
            "बहादुर", "शान्त", "चलाख", "साहसी", "उत्सुक", "कोमल", "खुसी", "रमाइलो", "भाग्यमानी",
            "फुर्तिलो", "चञ्चल", "प्यारो", "जाँगरिलो", "हँसिलो", "मिजासिलो", "चतुर", "तेजिलो",
            "रहस्यमय", "निडर", "दयालु", "मायालु", "सुनौलो", "चम्किलो", "बलियो", "जोसिलो",
        ),
        (
            "बाघ", "भालु", "हात्ती", "गैंडा", "चितुवा", "स्याल", "बाँदर", "खरायो", "मृग", "याक",
            "हिउँचितुवा", "लाटोकोसेरो", "डाँफे", "मयूर", "चील", "सुगा", "कछुवा", "भ्यागुतो",
            "रातो पाण्डा", "ढुकुर", "गोही", "बिरालो",
        ),
    ),
    "hi": GuestWords(
        (
            "बहादुर", "शांत", "चतुर", "साहसी", "उत्साही", "कोमल", "खुश", "मस्त", "भाग्यशाली",
            "फुर्तीला", "चंचल", "तेज़", "निडर", "हँसमुख", "नटखट", "दिलेर", "होशियार", "प्यारा",
            "जोशीला", "चमकीला", "सुनहरा", "रंगीला", "दयालु", "अनोखा", "शाही",
        ),
        (
            "शेर", "बाघ", "भालू", "हाथी", "चीता", "तेंदुआ", "भेड़िया", "बंदर", "खरगोश", "हिरन",
            "ऊँट", "घोड़ा", "मोर", "तोता", "उल्लू", "बाज़", "कछुआ", "गैंडा", "याक", "हंस",
            "मगरमच्छ", "पांडा",
        ),
    ),
}  # fmt: skip
