"""What people tell an assistant about themselves and the people around them, locally.

"We live in Rotterdam", "I work at Northwind as a product manager", "I'm allergic to
peanuts", "I drive a Honda Civic", "My sister Ines lives in Porto", "Theo Nakamura is our
landlord", "my GP is Dr. Amara Okafor", "Jessica Moreno, everyone calls her Jess, runs
our design team". The user's own facts hang off one subject, "User", as `Fact` entities
(subject, predicate, value) whose text carries the words a later question uses ("home",
"where I live", "job", "car", "allergies"), so a first-person question has something to
match.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from brainbridge.bridge.predicates import ROLE_WORDS, USER
from brainbridge.bridge.resolve import form
from brainbridge.words import FULL_STOP, LOWER, POSSESSIVE, STOPWORDS, UPPER

# A name's words are bounded ({0,5}, {0,3}): an unbounded run made every pattern that
# starts with one quadratic in a run of capitalised words (20 KB of "Mr Mr ..." or of
# shouting held the store thread for 50 s).
_CAPS = rf"[{UPPER}][\w&'’\-]*(?:[ \-](?:[{UPPER}0-9][\w&'’\-]*|(?:de|van|von|da|of|the)\b)){{0,5}}"
_PLACE = rf"({_CAPS})"
# A role: a few lower-case words up to punctuation or a joining word.
_JOB = r"([a-z][a-z\-]+(?: [a-z\-]+){0,4}?)(?=[,.;!?)]|\s+(?:and|since|last|this|at|on|in|for|from|but|so|mostly|now)\b|$)"
_TITLE = r"(?:(?i:dr|mr|mrs|ms|mx|prof)\.?\s+)?"
# Capitalised words that start a sentence or a line and name nobody ("She is my manager",
# "Who is Tom's coach?", "Mia's dentist\nTomorrow at 9").
_NO_NAME = (
    r"(?!(?:She|He|They|It|This|That|These|Those|Who|Which|What|Where|When|Why|How|There|"
    r"Here|We|You|I|Tomorrow|Today|Tonight|Yesterday|Next|Last|In|On|At|Is|Said|The|A|An|"
    r"And|But|So|Also|Then)\b)"
)
_PERSON = rf"{_TITLE}{_NO_NAME}([{UPPER}][{LOWER}{UPPER}'’\-]+(?:\s+(?:[{UPPER}][{LOWER}{UPPER}'’\-]+|de|van|von|da)){{0,3}})"
# A club's or a team's officers: one holder at a time, and said bare ("captain is Dean").
CLUB_ROLES = (
    "captain",
    "vice captain",
    "vice-captain",
    "club captain",
    "team captain",
    "club secretary",
    "secretary",
    "chairperson",
)
ROLES = (
    r"manager|boss|cofounder|co-founder|wife|husband|partner|friend|colleague|mentor|mentee|"
    r"sister|brother|mother|father|mom|mum|dad|son|daughter|coach|advisor|investor|client|"
    r"assistant|doctor|gp|dentist|therapist|lawyer|accountant|landlord|landlady|neighbou?r|"
    r"teammate|report|lead|ceo|cto|cfo|coo|founder|nanny|babysitter|teacher|tutor|trainer|vet|"
    r"plumber|electrician|cleaner|cousin|aunt|uncle|grandmother|grandfather|grandma|grandpa|"
    r"niece|nephew|roommate|flatmate|housemate|boyfriend|girlfriend|fianc[eé]e?|stepmother|"
    r"stepfather|godmother|godfather|physio|physiotherapist|pediatrician|paediatrician|"
    r"hairdresser|barber|agent|editor|recruiter|designer|engineer|architect|contractor|"
    r"mechanic|banker|notary|priest|pastor|rabbi|imam|supervisor|professor|lecturer|"
    r"line manager|team lead|tech lead|classmate|labmate|officemate|student|pupil|contact|"
    r"charge nurse|head nurse|nurse|midwife|pharmacist|surgeon|consultant|psychiatrist|"
    r"psychologist|counsell?or|social worker|case worker|shift lead|shift manager|foreman|"
    r"technician|instructor|pm|product manager|project manager|product owner|scrum master|"
    r"engineering manager|delivery manager|tenant|lodger|subtenant|endocrinologist|"
    r"cardiologist|dermatologist|oncologist|neurologist|gyn(?:a)?ecologist|obstetrician|"
    r"optician|optometrist|ophthalmologist|orthodontist|podiatrist|chiropractor|osteopath|"
    r"dietitian|dietician|nutritionist|specialist|allergist|rheumatologist|urologist|"
    r"gastroenterologist|audiologist|speech therapist|occupational therapist|"
    r"physical therapist|health visitor|carer|caregiver|photographer|videographer|florist|"
    r"wedding planner|planner|officiant|celebrant|decorator|gardener|handyman|painter|"
    r"dog walker|groomer|tailor|personal trainer|cook|chef|housekeeper|au pair|childminder|"
    r"head of department|head of year|head teacher|headteacher|principal|dean|"
    r"bandmate|drummer|singer|vocalist|guitarist|bassist|keyboardist|pianist|producer|"
    r"sound engineer|electrician|plumber|"
    r"interpreter|translator|solicitor|surveyor|financial advisor|financial adviser|adviser|"
    r"broker|estate agent|conveyancer|treasurer|caseworker|roofer|builder|"
    r"locksmith|joiner|carpenter|tiler|glazier|window cleaner|teaching assistant|ta|"
    r"learning support assistant|lsa|" + "|".join(CLUB_ROLES)
)
DIETS = (
    r"vegetarian|vegan|pescatarian|gluten[- ]free|lactose[- ]intolerant|dairy[- ]free|keto|"
    r"teetotal|sober|kosher|halal|diabetic|coeliac|celiac"
)

# Capitalised words that name a day, never a person ("switching dentists to Thursday").
CALENDAR_NAMES = (
    r"January|February|March|April|May|June|July|August|September|October|November|December|"
    r"Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday"
)
HOME = [
    re.compile(
        rf"\b(?i:i|we)(?:'ve| have)?\s+(?i:(?:now\s+)?(?:live|lived|living))\s+in\s+{_PLACE}"
    ),
    re.compile(rf"\b(?i:i'm|i am|we're|we are)\s+(?i:(?:now\s+)?based)\s+in\s+{_PLACE}"),
    # ...not a day or a month: "we moved to Mondays 7pm" moved a lesson.
    re.compile(
        rf"\b(?i:i|we)\s+(?i:(?:just\s+)?(?:moved|relocated))\s+to\s+"
        rf"(?!(?:{CALENDAR_NAMES}|Mon|Tue|Tues|Wed|Thu|Thur|Thurs|Fri|Sat|Sun)s?\b){_PLACE}"
    ),
]
# Words a job title ends with, for "I'm a data engineer at Northwind" (without one, "I'm a
# regular at Luigi's" would be a job).
_OCCUPATIONS = (
    r"engineer|developer|programmer|designer|manager|analyst|scientist|researcher|teacher|"
    r"nurse|doctor|consultant|lead|director|intern|architect|officer|specialist|administrator|"
    r"accountant|writer|editor|lawyer|founder|cofounder|co-founder|ceo|cto|cfo|coo|vp|head|"
    r"associate|coordinator|technician|pharmacist|physician|surgeon|professor|lecturer|"
    r"recruiter|marketer|strategist|owner|partner|advisor|assistant|representative|agent"
)
# The employer is group "org", the role (when said) group "job".
JOB = [
    re.compile(
        rf"\b(?i:i)\s+(?i:work|am working|'m working)\s+(?i:at|for)\s+(?P<org>{_CAPS})(?:\s+(?i:as)\s+(?:an?\s+)?(?P<job>{_JOB}))?"
    ),
    re.compile(
        rf"\b(?i:started|start|joined|i'm starting)\s+(?i:at\s+)?(?P<org>{_CAPS})\s+(?i:as)\s+(?:an?\s+)?(?P<job>{_JOB})"
    ),
    # "I just started as a data engineer at Northwind Logistics"
    re.compile(
        rf"\b(?i:i)\s+(?i:(?:just\s+|recently\s+)?(?:started|began)(?:\s+working)?)\s+(?i:as)\s+(?:an?\s+)?(?P<job>{_JOB})\s+(?i:at|for|with)\s+(?P<org>{_CAPS})"
    ),
    # "I'm a data engineer at Northwind", "I am now the head of product at Contoso"
    re.compile(
        rf"\b(?i:i'm|i am)\s+(?:now\s+)?(?:an?|the)\s+(?P<job>(?:[a-z][a-z\-]+\s+){{0,3}}?(?i:{_OCCUPATIONS})(?:\s+of\s+[a-z]+)?)\s+(?i:at|for)\s+(?P<org>{_CAPS})"
    ),
]
DIET = re.compile(
    rf"\b(?:i'm|i am|i've been|i have been|we're|we are|i went|i became|i'm now)\s+(?:now\s+|fully\s+|strictly\s+)?(?:an?\s+)?({DIETS})\b",
    re.I,
)
ALLERGY = re.compile(
    r"\b(?:i'm|i am|i'm also|i am also|turns out i'm|i'm really|i'm mildly|i'm severely)\s+"
    r"(?:also\s+)?allergic\s+to\s+([\w\- ]+?)(?=[,.;!?]|\s+(?:and|so|but|which|found)\b|$)",
    re.I,
)
# "I take metformin 500mg twice a day", "I'm on 50mg of sertraline", "Dr. Aziz increased my
# metformin to 1000mg": a medicine the user takes, with its dose (a dose tells a medicine
# from "I take the bus" or "I'm on the team").
# Grams are left out: "I increased my protein to 150g a day" is a diet, not a medicine.
_DOSE = r"\d[\d.,]*\s?(?:mg|mcg|µg|ml|iu|units?|puffs?|tablets?|pills?|capsules?)\b"
# When it is taken, in the words people use for that ("twice a day", "every morning", "as
# needed", "before bed"); "which makes me tired" is not part of the dose.
_WHEN_TAKEN = (
    r"(?:\s+(?i:once|twice|three times|four times|a|an|per|each|every|other|day|days|daily|"
    r"night|nightly|morning|mornings|evening|evenings|week|weekly|month|monthly|as|needed|"
    r"required|before|after|with|at|in|the|meals?|food|breakfast|lunch|dinner|bed|bedtime|"
    r"noon|hours?|\d+)\b){0,5}"
)
# A medicine's name: not a word of quantity or of food and drink ("I take around 2 pills",
# "I'm on 100mg of caffeine").
_NOT_DRUG = (
    r"the|a|an|my|our|it|them|some|every|each|one|two|about|around|roughly|down|up|level|"
    r"floor|more|less|extra|protein|carbs?|sugar|fat|fibre|fiber|caffeine|coffee|tea|water|"
    r"alcohol|creatine|calories|salt|sodium|steps|spanish|french|german|english|units?"
)
_DRUG = (
    rf"(?!(?i:{_NOT_DRUG})\b)[A-Za-z][a-z\-]{{3,}}"
    r"(?:\s+(?:[A-Z]\d{0,2}|\d{1,2}|oil)\b(?!\s*(?:mg|mcg|ml|iu)\b))?"  # "vitamin D", "fish oil"
)
_TAKES = (
    r"\b(?i:i|i'm|i am|i've been|i have been|i was)\s+(?i:take|taking|on|started|started on|"
    r"started taking|put on|was put on|got put on|prescribed)\s+"
)
MEDICATION = [
    re.compile(rf"{_TAKES}(?P<drug>{_DRUG})\s+(?P<dose>{_DOSE}{_WHEN_TAKEN})"),
    re.compile(rf"{_TAKES}(?P<dose>{_DOSE})\s+(?i:of\s+)?(?P<drug>{_DRUG})(?P<when>{_WHEN_TAKEN})"),
    # "Dr. Aziz increased my metformin to 1000mg", "my psychiatrist cut me down to 25mg of
    # sertraline", "my doctor put me on ramipril 5mg".
    re.compile(
        r"\b(?i:increased|raised|upped|lowered|reduced|cut|changed|switched|moved|put)\s+"
        rf"(?i:my|me)\s+(?i:on\s+)?(?P<drug>{_DRUG})\s+(?i:dose\s+|dosage\s+)?(?i:to|up to|down to)\s+"
        rf"(?P<dose>{_DOSE}{_WHEN_TAKEN})"
    ),
    re.compile(
        r"\b(?i:cut|put|moved|brought|took|dropped|increased|upped|lowered)\s+(?i:me)\s+"
        rf"(?i:down\s+|up\s+|back\s+)?(?i:to|on)\s+(?P<dose>{_DOSE})\s+(?i:of\s+)?"
        rf"(?P<drug>{_DRUG})(?P<when>{_WHEN_TAKEN})"
    ),
    re.compile(
        rf"\b(?i:put)\s+(?i:me)\s+(?i:on)\s+(?P<drug>{_DRUG})\s+(?P<dose>{_DOSE}{_WHEN_TAKEN})"
    ),
]
# "I have type 2 diabetes", "I was diagnosed with coeliac disease": a condition of the
# user's. Those a meal must mind are MEAL_CONDITIONS.
CONDITIONS = (
    r"(?:type [12] |type i{1,2} |type one |type two )?diabetes|pre-?diabetes|coeliac disease|"
    r"celiac disease|"
    r"coeliac|celiac|ibs|crohn['’]s(?: disease)?|colitis|asthma|epilepsy|hypertension|"
    r"high blood pressure|high cholesterol|migraines|arthritis|rheumatoid arthritis|psoriasis|"
    r"eczema|adhd|autism|anxiety|depression|long covid|sleep apn(?:o)?ea|gout|kidney disease|"
    r"hypothyroidism|an underactive thyroid|an overactive thyroid|pcos|endometriosis|lupus|"
    r"multiple sclerosis|fibromyalgia|a heart condition|heart disease|atrial fibrillation|"
    r"glaucoma|tinnitus|osteoporosis|a bad back|chronic back pain"
)
CONDITION = re.compile(
    r"\b(?:i have|i've got|i have got|i've had|i have had|i was diagnosed with|"
    r"i've been diagnosed with|i got diagnosed with|i suffer from|i live with|i'm living with)\s+"
    rf"(?:mild\s+|severe\s+|chronic\s+|ulcerative\s+)?({CONDITIONS})\b"
    # "I have anxiety about the talk", "I have diabetes patients on my ward": a mood or a
    # noun's word, no diagnosis.
    r"(?!\s+(?:about|over|today|tonight|this|right now|patients|clients|students|pupils|kids|"
    r"children|training|awareness|class|classes|lessons?|research|nurses?|meds|medication))",
    re.I,
)
# "My rent is 720 euros a month", "our phone number is 06 1234 5678": a value of the user's.
_AMOUNTS = {
    "rent": "rent",
    "salary": "salary",
    "mortgage": "mortgage",
    "hourly rate": "rate",
    "day rate": "rate",
    "phone number": "phone",
    "mobile number": "phone",
    "address": "address",
    "birthday": "birthday",
    "postcode": "postcode",
    "zip code": "postcode",
    "blood type": "blood type",
    "shoe size": "shoe size",
}
# A value says a number ("720 euros a month", "06 1234 5678", "March 3"): "my rent is too
# high" or "due on the 1st" is no value of it.
_AMOUNT_VALUE = (
    rf"(?!(?i:due|in|on|at|going|not|too|so|very|about)\b)"
    rf"([^;!?\n\d]{{0,30}}\d[^;!?\n]{{0,40}}?)(?=,(?!\d)|[;!?\n]|{FULL_STOP}(?:\s|$)|"
    r"\s+(?i:and|but|so|which|plus)\b|$)"
)
MY_AMOUNT = re.compile(
    rf"(?<!\b(?i:if) )(?<!\b(?i:when) )\b(?i:my|our)\s+(?:new\s+|monthly\s+|current\s+)?(?i:({'|'.join(_AMOUNTS)}))\s+"
    r"(?i:is|will be|went up to|goes up to)\s+(?i:now\s+|still\s+)?" + _AMOUNT_VALUE
)
# "my landlord just raised the rent to 1400 a month", "they cut my salary to 40k".
# (a supposition, "if they raised the rent to 2000", is left out where it is read).
RAISED_AMOUNT = re.compile(
    r"\b(?i:raised|increased|put up|upped|lowered|reduced|cut|dropped|bumped)\s+"
    rf"(?i:the|my|our)\s+(?i:monthly\s+)?(?i:({'|'.join(_AMOUNTS)}))\s+(?i:to|up to|down to)\s+"
    + _AMOUNT_VALUE
)
CAR = re.compile(rf"\b(?i:i|we)\s+(?i:drive|own)\s+(?i:an?|the)\s+((?:\d{{4}}\s+)?{_CAPS})")
# The businesses the user deals with: "our drugs supplier is Covetrus", "my bank is
# Monzo", "our venue is St Mary's Hall", "switched our car insurance to Direct Line".
# Businesses, not people: "my dentist is Dr Shah" is a person's role; nor what a word
# also means ("my surgery is Monday", "my practice is Tuesdays", "our host is Sarah").
_PROVIDERS = (
    r"supplier|provider|bank|building society|gym|venue|insurer|insurance company|insurance|"
    r"broadband|internet|energy company|mobile network|phone network|garage|"
    r"pharmacy|nursery|school|caterer|courier|printers?|letting agents?|"
    r"estate agents?|wholesaler|distributor|domain registrar|web host|email host|"
    r"hosting provider|hosting company|"
    r"bakery|florist|removal company|removals firm|lender|credit union"
)
# Which one, in a word or two; not someone else's with the apostrophe left out ("my
# sisters bank", "my kids school") nor one that was ("my old bank").
_OTHERS = (
    rf"(?:{ROLES})s|kids|parents|children|childrens|folks|grandparents|old|former|previous|"
    r"last|ex|first|other"
)
_PROVIDER = rf"((?:(?!(?:{_OTHERS})\b)[a-z]+\s+){{0,2}}?(?:{_PROVIDERS}))"
_NOT_BUSINESS = (
    rf"(?!(?:She|He|They|It|This|That|We|You|I|Not|No|Still|Now|Just|Also|Too|So|Very|"
    rf"Really|Year|Christmas|Easter|TB[CDA]|Ofsted|Great|Good|Bad|Fine|Excellent|Outstanding|"
    rf"Brilliant|Lovely|Nice|Terrible|Rubbish|Useless|Closed|Open|Shut|Third|Fully|OK|Okay|"
    rf"Online|Outdoors|Indoors|Outside|Mon|Tues?|Wed|Thu|Thurs?|Fri|Sat|Sun|"
    rf"\w+-based|(?:{CALENDAR_NAMES})s?)\b)"
)
PROVIDER_IS = re.compile(
    rf"\b(?i:my|our)\s+(?i:new\s+|current\s+|main\s+|usual\s+)?(?i:{_PROVIDER})"
    rf"(?:\s+(?i:is|are|will be)(?:\s+(?i:now|still))?|['’]s\s+(?i:now|with))\s+"
    rf"(?:(?i:with)\s+)?{_NOT_BUSINESS}({_CAPS}(?:\s+&\s+{_CAPS})?)"
)
# "we switched our energy to Octopus", "moved my broadband over to Virgin Media"; not "I
# never switched my bank to Monzo", "we almost switched".
PROVIDER_SWITCHED = re.compile(
    r"(?<!\bnever )(?<!\bnot )(?<!n't )(?<!\balmost )(?<!\bnearly )"
    r"\b(?i:switched|moved|changed)\s+(?i:my|our)\s+"
    rf"(?i:{_PROVIDER}|((?:[a-z]+\s+){{0,1}}?(?:energy|electricity|gas|banking|insurance)))"
    rf"\s+(?i:over\s+)?(?i:to)\s+{_NOT_BUSINESS}({_CAPS}(?:\s+&\s+{_CAPS})?)"
)
# What a name does not end with: "Aviva I think", "Monzo BUT the app", "St Mary's Hall
# Saturday 7pm".
_NAME_TAIL = re.compile(rf"(?:\s+(?:I|BUT|AND|OR|SO|THE|{CALENDAR_NAMES})\b.*)$")
# An adjective in capitals is no business: "my internet is SO slow", "DOWN again".
_SHOUTED = frozenset("slow bad awful terrible rubbish useless great good fine dead broken".split())
# "my bank is Monzo, right?": asked, not told.
_TAG_QUESTION = re.compile(r"\s*,?\s*(?:right|correct|yeah|yes|no|isn'?t it|innit|eh)\s*\?", re.I)
# The word a later question uses for the kind of business, when people say it more ways:
# "electricity provider", "our gas company" and "energy" are the energy supplier.
_PROVIDER_KINDS = (
    (re.compile(r"\b(?:energy|electricity|electric|gas)\b"), "energy supplier"),
    (re.compile(r"\b(?:broadband|internet|wifi)\b"), "internet"),
    (re.compile(r"\b(?:mobile|phone)\s+(?:network|provider|company)\b"), "mobile network"),
    (re.compile(r"^(?:insurance|insurance company|insurer)$"), "insurer"),
    (re.compile(r"^banking$"), "bank"),
)


def _provider_kind(said: str) -> str:
    """The predicate of a business the user called `said` ("car insurance": car insurer)."""
    kind = next((k for pattern, k in _PROVIDER_KINDS if pattern.search(said)), said)
    return re.sub(r"\binsurance(?: company)?$", "insurer", kind).removesuffix("s")


# People: "my sister Ines ...", "our accountant Wen Li ...", "Theo is our landlord",
# "my GP is Dr. Amara Okafor ...", "my new manager is Oskar Lindqvist", "my editor there is
# Lucia Ferraz", "my contact at Moss & Fern is Daniel Okafor".
_PRAISE = (
    r"lovely|wonderful|amazing|awesome|great|sweet|beloved|favou?rite|fantastic|brilliant|"
    r"current|present|trusty|trusted|dear"
)
# "my thesis supervisor", "my business partner", "our kiln technician": which one, part of
# the role (any one word but an article, a conjunction or an age: "my new manager" is new).
# "My biggest client is Harbor Books": a superlative ranks a role, and what it ranks may
# be a company; "my oldest friend" is a person.
_WHICH = (
    r"(?:(?!(?:new|old|former|ex|the|a|an|and|or|own|other|very|dear)\b)"
    rf"(?!(?!(?:old|young|eld|clos|b)est\b)[a-z]+est\b)(?!(?:{_PRAISE})\b)[a-z]{{3,}}\s+)"
)
# "my lovely wife Anna", "my current manager": praise and time say nothing of the role.
_ROLE = rf"(?:(?i:{_PRAISE})\s+)?((?:{_WHICH})?(?:{ROLES}))"
MY_ROLE_NAME = re.compile(rf"\b(?i:(my|our)\s+(?:new\s+|old\s+|former\s+)?{_ROLE}),?\s+{_PERSON}")
# "The electrician, Dave Kim, is coming on Monday": one the user deals with, named between
# commas; a trade, never a manager or a partner ("The manager, Anna, said no" at a
# restaurant is nobody's manager of the user's).
_TRADES = (
    r"electrician|plumber|photographer|videographer|florist|wedding planner|planner|"
    r"decorator|gardener|handyman|painter|dog walker|groomer|tailor|cleaner|nanny|"
    r"babysitter|tutor|mechanic|architect|contractor|accountant|lawyer|solicitor|surveyor|"
    r"vet|dentist|physio|physiotherapist|therapist|personal trainer|instructor|recruiter|"
    r"chiropractor|optician|osteopath|interpreter|translator|roofer|builder|locksmith|"
    r"joiner|carpenter|tiler|glazier|window cleaner|oven engineer|engineer"
)
THE_ROLE_NAME = re.compile(
    rf"\b(?i:the)\s+(?i:new\s+)?((?i:{_TRADES})),[ \t]+"
    # ..."The roofer, a chap called Stan Whitby, came round"
    r"(?:(?i:an?\s+(?:chap|guy|bloke|man|woman|lady|fella|fellow)\s+(?:called|named))\s+)?"
    rf"{_PERSON},"
    # ...not someone else's: "The lawyer, Mark Jones, for the other side", "The
    # photographer, Sam Ortiz, from her side".
    r"(?!\s*(?i:for|from|at|of|on)\s+(?:(?i:the\s+other|her|his|their)\b|[A-Z]\w*['’]s\b))"
    r"(?![^.!?\n]*\?)"  # nor asked about: "Who is the electrician, Dave Kim, anyway?"
)
# "One of my Year 11 students, Aisha, is dyslexic": one of several in a role.
ONE_OF_MY = re.compile(
    rf"\b(?i:one of (my|our))\s+(?:[\w'’\-]+\s+){{0,3}}?(?i:({ROLES}))s,?\s+{_PERSON}"
)
NAME_IS_ROLE = re.compile(
    rf"{_PERSON},?\s+(?:is|was|has been)\s+(?i:(my|our)\s+(?:new\s+|old\s+)?{_ROLE})\b"
)
_THERE = r"(?:\s+(?i:there|here|(?:at|on|in)\s+[^,.;!?]{1,40}?|from\s+(?:\w+\s+)?\w+))?"
# "My landlord is a guy called Graham Hurst", "my mentor is this lovely man named Peter".
_CALLED = (
    r"(?:(?i:(?:a|an|this|some)\s+(?:[a-z]+\s+)?(?:guy|man|woman|lady|bloke|chap|fellow|girl|"
    r"gentleman|person)|someone)\s+(?i:called|named)\s+)?"
)
ROLE_IS_NAME = re.compile(
    rf"\b(?i:(my|our)\s+(?:new\s+)?{_ROLE}){_THERE}\s+(?:is|will be)\s+(?:now\s+)?{_CALLED}"
    rf"{_PERSON}"
)
# "Mortgage broker is Tom Aldridge", "lawyer is Priti Shah at Osborne Clarke": the same, the
# possessive left out as people do in a quick note, at the start of a sentence.
# Only roles one hires or deals with, and what kind they are ("Arsenal manager is Mikel
# Arteta", "Her doctor is Dr Patel" and "Chair is Ikea" are nobody of the user's).
_BARE_KIND = (
    r"mortgage|estate|immigration|family|divorce|tax|employment|property|conveyancing|"
    r"wedding|dog|personal|private|letting|insurance"
)
_BARE_ROLES = (
    rf"{_TRADES}|broker|agent|conveyancer|doctor|gp|landlord|landlady|treasurer|contact|"
    r"advisor|adviser|financial advisor|financial adviser|caseworker|case worker|social worker|"
    r"midwife|health visitor|childminder|tutor|teaching assistant|ta|" + "|".join(CLUB_ROLES)
)
BARE_ROLE_IS_NAME = re.compile(
    # ...at a sentence's start, or after one who left ("Alan retired, new vet is Sian";
    # not "my sister moved to Leeds, new GP is Dr Khan").
    rf"(?:^|(?<=[.;!?\n])[ \t]*|(?:(?<=(?i:retired),)|(?<=(?i:left),)|(?<=(?i:quit),))"
    rf"[ \t]*(?=(?i:new)\s))()(?i:new\s+)?"
    rf"((?i:(?:(?:{_BARE_KIND})\s+)?(?:{_BARE_ROLES})))"
    rf"{_THERE}[ \t]+(?:is|will be)[ \t]+(?!(?:{CALENDAR_NAMES})\b){_PERSON}"
)
# ...or after a comma, a new one: "Gary's let me down, new plumber is Karen Wells", when
# the clause before speaks of no one else's ("My sister moved to Leeds, new GP is ...").
NEW_ROLE_AFTER = re.compile(
    rf",[ \t]*(?:(?i:and|so)[ \t]+)?()(?i:new)[ \t]+((?i:(?:(?:{_BARE_KIND})\s+)?(?:{_BARE_ROLES})))"
    rf"[ \t]+(?:is|will be)[ \t]+(?!(?:{CALENDAR_NAMES})\b){_PERSON}"
)
# ...and the clause before says the old one left the user: "let me down", "stopped
# coming", "going on maternity leave" ("Jo's moving house, new landlord is ..." is Jo's).
_LEFT_THE_USER = re.compile(
    r"\b(?:let\s+(?:me|us)\s+down|quit|retired|left|stopped\s+(?:coming|working)|"
    r"(?:going|gone|off)\s+on\s+(?:maternity|paternity|sick|long-term\s+sick)\s+leave|"
    r"is\s+off\s+sick|went\s+bust|packed\s+(?:it|us)\s+in|dropped\s+(?:me|us)|"
    r"no\s+longer\s+(?:does|doing|comes|coming|available)|can['’]?t\s+(?:do|make)\s+it)",
    re.I,
)
_SOMEONE_ELSES = re.compile(
    r"\b(?:my|our|his|her|their|your)\s+\w+|\b(?:mum|mom|dad|mother|father|sister|brother|"
    r"wife|husband|son|daughter|kids?|partner|friend|gran|grandma|grandad|grandpa|nan|aunt|"
    r"uncle|family|parents)\b",
    re.I,
)
# ...and the people a show is run with, when the message opens with one ("stage manager
# is Ollie Grant"): after "Watched Hamilton last night." the choreographer is the show's.
SHOW_ROLE_IS_NAME = re.compile(
    r"\A\W*()((?i:stage manager|production manager|lighting designer|sound designer|"
    r"set designer|costume designer|choreographer|musical director|accompanist))"
    rf"[ \t]+(?:is|will be)[ \t]+{_PERSON}"
)
# Someone else's person: "Mia's pediatrician is Dr. Helen Cho", "Noah's swim coach is
# Marco", "Flat 1's tenant, Tom Becker, gave notice", "Marco is Noah's swim coach". The
# owner is a name (not a word that starts a sentence: "Today's lead is Anna") or a flat,
# house, unit or room. Kept as a person described by whose they are, with no role of the
# user's: "who is my coach?" is not asking for Noah's.
_NOT_OWNER = (
    r"It|That|What|There|Here|He|She|Who|Where|When|How|Let|Everyone|Everybody|Nobody|"
    rf"Somebody|Someone|Today|Tomorrow|Yesterday|Tonight|Year|Week|Month|{CALENDAR_NAMES}"
)
# Places whose people are no one's in particular ("flat 2's tenant").
_PLACES = ("flat", "apartment", "unit", "house", "room")
_OWNER = (
    rf"((?!(?:{_NOT_OWNER})['’])[{UPPER}][{LOWER}]+(?:\s+\d+[a-z]?)?|"
    rf"(?i:{'|'.join(_PLACES)})\s+\w+)['’]s"
)
_THEIR_ROLE = rf"{_OWNER}\s+(?i:new\s+|old\s+|former\s+)?(?!report\b)(?i:{_ROLE})"
THEIR_ROLE_IS_NAME = re.compile(
    rf"\b{_THEIR_ROLE}(?:[ \t]+(?:is|was)[ \t]+(?:now[ \t]+)?|,?[ \t]+)(?!(?:{CALENDAR_NAMES})\b)"
    + _PERSON
)
NAME_IS_THEIR_ROLE = re.compile(rf"{_PERSON},?\s+(?:is|was)\s+{_THEIR_ROLE}\b")
# "I'm switching dentists to Dr. Romero", "we changed accountants to Wen Li": the role's
# new holder.
SWITCHED_TO = re.compile(
    r"\b(?i:i|we|i'm|i am|we're|we are|i've|we've)\s+(?i:(?:just\s+)?(?:switching|switched|"
    rf"changing|changed))\s+(?i:({ROLES}))s\s+(?i:to)\s+(?!(?:{CALENDAR_NAMES})\b){_PERSON}"
)
# "Liam O'Connor is taking over as treasurer": the role's new holder.
# Not the role of something named: "captain of the rugby team", "manager at Spurs".
_NOT_THEIRS = r"(?![ \t]+(?i:of|for|at|in)\b)"
# Words that open a clause, not a name: "If Kyle is captain now ...".
_NOT_A_HOLDER = r"If|When|Unless|Because|Since|So|And|But|Whether|Maybe|Perhaps|Once|Until"
TAKES_OVER_AS = re.compile(
    rf"{_PERSON}\s+(?i:(?:is|['’]s|will be)\s+taking|took|has taken|will take)\s+(?i:over)\s+"
    rf"(?i:as)\s+(?:(?i:our|my)\s+(?i:new\s+)?{_ROLE}\b|(?i:(?:the\s+)?(?:new\s+)?)"
    rf"((?i:{_BARE_ROLES}))\b{_NOT_THEIRS})"
)
# ...and a quick note of the new holder of a plain role, opening a sentence or after a
# comma: "Kyle is captain now", "Kyle's captain now", "Kyle Osei is the new treasurer";
# not "Kyle is captain of the rugby team" nor "Ella is captain now of her netball team"
# (someone else's). "X is captain now" takes a first name alone: "Harry Kane is captain
# now" is England's.
NEW_HOLDER = re.compile(
    rf"(?:^|(?<=[.;!?\n,])[ \t]*)(?!(?:{_NOT_A_HOLDER})\b){_PERSON}(?:[ \t]+is|(?<=['’]s))[ \t]+(?:"
    rf"(?i:(?:the|our|my)[ \t]+)?(?i:new)[ \t]+((?i:{_BARE_ROLES})){_NOT_THEIRS}|"
    rf"((?i:{_BARE_ROLES}))[ \t]+(?i:now)\b(?![ \t]+(?i:is|was)\b){_NOT_THEIRS})"
)
# "Graham is stepping down as treasurer", "Alan has retired as our vet": a role left.
STEPPED_DOWN = re.compile(
    rf"{_PERSON}\s+(?i:(?:is\s+)?stepping|stepped|has\s+stepped|is\s+standing|stood|"
    rf"has\s+stood)\s+"
    rf"(?i:down)\s+(?i:as)\s+(?i:(?:our|my|the)\s+)?{_ROLE}\b|"
    rf"{_PERSON}\s+(?i:has\s+retired|retired|has\s+left|left|quit)\s+(?i:as)\s+(?i:our|my)\s+{_ROLE}\b"
)
# "Booked the photographer, Sam Ortiz, for 2,400 pounds", "we hired a new nanny, Rosa": one
# the user took on (the name set off by a comma: "booked the plumber Friday" names nobody).
HIRED_ROLE_NAME = re.compile(
    r"\b(?i:(booked|hired|engaged|found|got|took on|signed|chose|picked|went with|"
    # "I'm switching to a new tutor, Joana Lima" (not "my sister switched to ...")
    r"(?<=i'm )switching to|(?<=we're )switching to|(?<=i )switched to|(?<=we )switched to|"
    r"(?<=i've )switched to|(?<=i'm )moving to|(?<=i )moved to|(?<=we )moved to))\s+"
    rf"(?i:the|a|an|our|my)\s+(?i:new\s+)?{_ROLE},\s+(?!(?:{CALENDAR_NAMES})\b){_PERSON}"
)
_AT = re.compile(r"\sat\s+(.+?)\s+(?:is|will be)\s", re.I)
# "New client! Harriet Osei, she's the marketing manager at Brindle & Co": someone
# introduced by what they do where (no role of the user's).
NAME_WHO_WORKS = re.compile(
    rf"{_PERSON},[ \t]+(?i:she|he|they)(?:['’](?:s|re)|\s+(?:is|are))[ \t]+(?i:the|an?)[ \t]+"
    rf"((?:[a-z][\w\-]*[ \t]+){{0,3}}?(?i:{_OCCUPATIONS}))[ \t]+(?i:at|for|of|from)[ \t]+({_CAPS})"
)
ALIAS = [
    re.compile(
        rf"{_PERSON},?\s+(?:(?i:everyone|everybody|people|we all|we|they|most people)\s+calls?\s+(?:her|him|them)|(?:who\s+)?(?i:goes by|is known as|aka))\s+({_CAPS})"
    ),
    re.compile(rf"{_PERSON}\s+\((?:(?i:aka|a\.k\.a\.|or)\s+)?([{UPPER}][\w'’\-]+)\)"),
]
# Someone reported as speaking or acting for the user: "Oscar Lindqvist said ...", "Mr
# Gordon says ...". A full name or a titled one: a bare "Jess said" must resolve to someone
# known, never mint a new person, and a title is never part of the name.
REPORTER = re.compile(
    rf"(?:\b(?:Dr|Mr|Mrs|Ms|Mx|Prof)\.?\s+([{UPPER}][{LOWER}{UPPER}'’\-]+(?:\s+[{UPPER}][{LOWER}{UPPER}'’\-]+){{0,3}})|"
    r"\b(?!(?:Dr|Mr|Mrs|Ms|Mx|Prof)\b)"
    rf"([{UPPER}][{LOWER}{UPPER}'’\-]+(?:\s+(?:[{UPPER}][{LOWER}{UPPER}'’\-]+|de|van|von|da)){{1,3}}))\s+"
    r"(?:said|says|told|asked|asks|wants|wanted|emailed|texted|called|mentioned|suggested|"
    r"promised|thinks|confirmed|approved|sent|replied|wrote|"
    # ...or as doing a part of the work: "Jonas Berg handles the billing service" (not
    # "runs": "Visual Studio Code runs the formatter").
    r"(?P<does>owns|handles|leads|manages|heads|looks after|is in charge of))\b"
)
# What follows a person's introduction that describes them (not reported speech).
_REPORTED = re.compile(
    r"^\s*(?:said|says|told|tells|asked|asks|emailed|texted|wrote|wants|mentioned|called)\b", re.I
)
# (not the dot of "£6.50/hour")
_CLAUSE_END = re.compile(rf"{FULL_STOP}(?!\d)|[;!?\n]")


def _sentence_before(text: str, at: int) -> str:
    """The sentence `text` is in at `at`, up to there."""
    starts = [m.end() for m in _CLAUSE_END.finditer(text, 0, at)]
    return text[(starts[-1] if starts else 0) : at]


# "... owns the auth service, and Jonas Berg handles ...": the next subject, a name and
# its verb ("handles billing, payroll and HR" goes on, and so does "Monday, Wednesday and
# Friday mornings").
_SUBJECT_AHEAD = (
    rf"(?=(?!(?:{CALENDAR_NAMES})s?\b)[{UPPER}][\w'’\-]*(?:\s+[{UPPER}][\w'’\-]*)?\s+[a-z]+s\b)"
)
_NEXT_SUBJECT = re.compile(rf",?\s+(?:and|but|while)\s+{_SUBJECT_AHEAD}|,\s+{_SUBJECT_AHEAD}")
# ...and after someone is introduced, another one's clause, said with "and" and a verb
# ("..., and Priti Shah is doing lighting"; not "Mon, Wed and Fri mornings" nor "payroll,
# VAT returns and year-end accounts").
_OTHERS_CLAUSE = re.compile(
    rf",?\s+(?:and|but|while)\s+(?=[{UPPER}][{LOWER}]+(?:\s+[{UPPER}][{LOWER}]+)?\s+"
    r"(?:is|was|has|will|does|did|can|handles|runs|owns|manages|looks|takes|leads|covers|"
    r"helps|deals|sorts|organises|organizes)\b)"
)
# Teams, products and places that own or handle things: "Platform Team owns the auth
# service", "Apple Pay handles payments", "Real Madrid leads La Liga".
NOT_SOMEONE = re.compile(
    r"\b(?:Team|Teams|Support|Services?|Pay|Actions|Maps|Owner|Manager|Ops|Cloud|Web|Studio|"
    r"Code|Labs?|Inc|Ltd|LLC|Group|Department|Desk|Bot|AI|API|Engine|Platform|Office|Club|"
    r"Council|Committee|Board|Bank|Airlines?|Air|Store|Shop|Agency|Partners|Capital|"
    # ...and businesses and venues: "Jump Zone said 15 kids max", "Lens Rentals wants".
    r"Zone|Cent(?:re|er)|Gym|Caf[eé]|Hotel|Inn|Pub|Bar|Restaurant|Kitchen|Bakery|Rentals?|"
    r"Motors|Garage|Surgery|Clinic|Pharmacy|Arena|Stadium|Academy|School|College|University|"
    r"Hospital|Insurance|Energy|Homes|Removals|Builders|Plumbing|Electrical|Travel|Tours|"
    r"Lettings|Estates|Solicitors|Accountants|Dental|Vets|Nursery|Library|Museum|Theatre|"
    r"Theater|Cinema|Market|Foods|Coffee|Pizza|Express|Mobile|Broadband|Fitness|Leisure|"
    r"Sports|Books|Media|Press|Digital|Solutions|Systems|Consulting|Logistics|Transport|"
    r"Taxis?|Hire|Salon|Barbers|Airport|Station|Ltd\.|Inc\.|Co\.?|Company|Legal|Law|"
    r"Associates|Architects|Designs?|Studios|Interactive|Games|Software|Technologies|Tech|"
    r"Healthcare)$|"
    r"^(?:Platform|Customer|Product|Real|Storm|Google|Apple|Amazon|Microsoft|GitHub|Azure|"
    r"Slack|Notion|Jira|Stripe|Visual|Windows|Android|Meta|Facebook|Twitter|Team|The)\b"
)


# Words a sentence opens with before a name ("Honestly Daniel said no"); "Emily" and
# "Kelly" end in -ly too.
_OPENERS = frozenset(
    """honestly apparently actually basically luckily finally obviously hopefully sadly
    unfortunately fortunately literally seriously frankly clearly thankfully annoyingly
    weirdly surprisingly naturally anyway anyhow also plus meanwhile today yesterday
    tomorrow later earlier now update ok okay yes yeah well oh so then and but because when
    if after before since while though although maybe perhaps still just even""".split()
)
# ...and the words a sentence opens with before a deed of the user's ("We hired", "So I
# booked", "Finally booked").
_OPENING = "|".join(sorted(_OPENERS | {"we", "i"}))
# ...by someone else: "Claire's got a solicitor, Mr Patel", "Dad hired a cleaner, Rosa".
_THEY_DID = re.compile(
    # (A wife's, husband's or partner's hire is mostly the household's.)
    r"(?:\b(?i:he|she|they|it)|\b(?P<owner>(?i:dad|mum|mom|my\s+(?:\w+\s+)?(?:father|mother|"
    r"sister|brother|son|daughter|friend|boss|neighbour|neighbor|colleague|cousin|aunt|uncle|"
    r"(?:brother|sister|mother|father)-in-law))|"
    # ...or someone named, as subject: "Claire's got", "Ellie has got", "Claire hired".
    rf"(?!(?i:{_OPENING})\b)[{UPPER}][{LOWER}]+))"
    r"(?:['’](?:s|ve|d)|\s+(?i:has|have|had|just|finally|also))*\s+$"
)


def without_opener(name: str) -> str:
    """A name without the word a sentence opened with: "Then Daniel", "Honestly Daniel"."""
    words = name.split()
    while len(words) > 1 and words[0].lower() in _OPENERS:
        words = words[1:]
    return " ".join(words)


@dataclass(frozen=True)
class ProfileFact:
    subject: str
    predicate: str
    value: str
    sentence: str


@dataclass(frozen=True)
class PersonFact:
    name: str
    role: str
    description: str
    aliases: tuple[str, ...] = ()
    # Whose they are, when not the user's, and as what: ("Mia", "pediatrician").
    of: tuple[str, str] | None = None
    # A role of the user's they left ("Graham is stepping down as treasurer").
    left: str = ""


def _clean(value: str) -> str:
    return " ".join(value.strip(" ,;:-'’").split())


def user_facts(text: str) -> list[ProfileFact]:
    """The user's home, job, diet, allergies and car, as stated in the first person."""
    out: list[ProfileFact] = []
    for pattern in HOME:
        for m in pattern.finditer(text):
            place = _clean(m.group(1))
            out.append(
                ProfileFact(
                    USER, "home", place, f"The user lives in {place} (home, where the user lives)."
                )
            )
    for pattern in JOB:
        for m in pattern.finditer(text):
            org, job = _clean(m.group("org")), _clean(m.group("job") or "")
            said = f"The user works at {org}" + (f" as {job}" if job else "")
            out.append(ProfileFact(USER, "employer", org, said + " (job, employer, current role)."))
    for m in DIET.finditer(text):
        diet = m.group(1).lower()
        out.append(ProfileFact(USER, "diet", diet, f"The user is {diet} (diet, food)."))
    for m in ALLERGY.finditer(text):
        what = _clean(m.group(1))
        out.append(
            ProfileFact(
                USER, "allergy", what, f"The user is allergic to {what} (food allergies, allergy)."
            )
        )
    raised = [m for m in RAISED_AMOUNT.finditer(text) if not _asked_or_supposed(text, m.start())]
    for m in [*MY_AMOUNT.finditer(text), *raised]:
        said, value = m.group(1).lower(), _clean(m.group(2))
        predicate = _AMOUNTS[said]
        out.append(
            ProfileFact(USER, predicate, value, f"The user's {said} is {value} ({predicate}).")
        )
    for pattern in MEDICATION:
        for m in pattern.finditer(text):
            if _asked_or_supposed(text, m.start()):
                continue
            drug = m.group("drug")
            dose = _clean(m.group("dose") + (m.groupdict().get("when") or ""))
            out.append(
                ProfileFact(
                    USER,
                    "medication",
                    f"{drug} {dose}",
                    f"The user takes {drug}, {dose} (medication, medicine, dose).",
                )
            )
    for m in CONDITION.finditer(text):
        if _asked_or_supposed(text, m.start()):
            continue
        condition = m.group(1).lower()
        out.append(
            ProfileFact(
                USER,
                "condition",
                condition,
                f"The user has {condition} (health condition, diagnosis).",
            )
        )
    for pattern in (PROVIDER_IS, PROVIDER_SWITCHED):
        for m in pattern.finditer(text):
            said = " ".join((m.group(1) or m.group(2)).lower().split())
            name = _clean(_NAME_TAIL.sub("", m.group(m.lastindex or 0)))
            # "SO slow", "OUTSTANDING": a word shouted (a firm's initials are shorter: EDF, HSBC).
            shouted = name.isupper() and (
                name.lower() in STOPWORDS or name.lower() in _SHOUTED or len(name) > 4
            )
            if (
                _asked_or_supposed(text, m.start())
                or _TAG_QUESTION.match(text, m.end())
                or len(name) < 2
                or shouted
            ):
                continue
            kind = _provider_kind(said)
            also = f", {said}" if said != kind else ""
            out.append(
                ProfileFact(
                    USER, kind, name, f"The user's {kind} is {name} ({kind}{also}, provider)."
                )
            )
    for m in CAR.finditer(text):
        car = _clean(m.group(1))
        out.append(ProfileFact(USER, "car", car, f"The user drives a {car} (car, vehicle)."))
    return out


# Words just before "I ..." that ask, suppose or guess ("if I take", "can I take", "I'm
# worried I have", "my doctor thinks I have").
_SUPPOSED = re.compile(
    r"\b(?:if|when|whether|unless|in case|maybe|might|should|do|does|did|can|could|would|"
    r"may|think|thinks|thought|worried|afraid|suspect|suspects|wonder|sure|probably|"
    r"possibly|guess|fear)\b",
    re.I,
)
_PART_END = re.compile(r"[,;:.!?\n]|\s[-–—]\s")


def _asked(text: str, start: int) -> bool:
    """Whether the clause that starts at `start` is a question ("Is my manager Oskar?");
    "I have type 2 diabetes, what should I eat?" tells, then asks."""
    part = _PART_END.search(text, start, start + 200)
    return part is not None and part.group() == "?"


def _asked_or_supposed(text: str, start: int) -> bool:
    """Whether the few words before `start` ask or suppose ("if I take ibuprofen 400mg",
    "do I have asthma", "I think I have long covid"), or its clause is a question."""
    before = _PART_END.split(text[max(0, start - 80) : start])[-1]
    return bool(_SUPPOSED.search(" ".join(before.split()[-3:]))) or _asked(text, start)


def _rest(text: str, end: int) -> str:
    """The rest of the clause after a person is introduced, unless it reports speech."""
    tail = _CLAUSE_END.split(text[end : end + 400], maxsplit=1)[0]
    # "..., and Priti Shah is doing lighting": someone else's clause.
    tail = _OTHERS_CLAUSE.split(tail, maxsplit=1)[0].lstrip(" ,")
    if not tail or _REPORTED.match(tail) or len(tail.split()) < 2:
        return ""
    return tail[:200]


def _about(name: str, rest: str) -> str:
    """ " Ines lives in Porto." or " Her clinic is on Queen Street." after a role sentence."""
    if not rest:
        return ""
    if not name or _PRONOUN_START.match(rest):
        return f" {rest[:1].upper()}{rest[1:]}."
    return f" {name} {rest}."


_PRONOUN_START = re.compile(r"^(?:she|he|they|her|his|their|it|its)\b", re.I)


def people(text: str) -> list[PersonFact]:
    """People introduced with their role to the user, their aliases and what describes them."""
    out: list[PersonFact] = []

    def role_of(word: str) -> str:
        word = word.lower()
        return f"{word} ({ROLE_WORDS[word]})" if word in ROLE_WORDS else word

    # (pattern, group of the name, group of the role): "my sister Ines", "Theo is our
    # landlord", "my GP is Dr. Amara Okafor".
    # After "X is our landlord, ..." the rest is a sentence of its own, not about X.
    for pattern, name_at, role_at, subject in (
        (MY_ROLE_NAME, 3, 2, True),
        (NAME_IS_ROLE, 1, 3, False),
        (ROLE_IS_NAME, 3, 2, True),
        (BARE_ROLE_IS_NAME, 3, 2, True),
        (NEW_ROLE_AFTER, 3, 2, True),
        (SHOW_ROLE_IS_NAME, 3, 2, True),
        (SWITCHED_TO, 2, 1, True),
        (HIRED_ROLE_NAME, 3, 2, True),
        (ONE_OF_MY, 3, 2, True),
        (THE_ROLE_NAME, 2, 1, True),
        (TAKES_OVER_AS, 1, 2, False),
        (NEW_HOLDER, 1, 2, False),
    ):
        for m in pattern.finditer(text):
            if _asked(text, m.start()):
                continue  # "Is my manager Oskar?"
            if pattern is HIRED_ROLE_NAME and (them := _THEY_DID.search(text, 0, m.start())):
                # "Ellie's got a maths tutor, Mrs Okonkwo": Ellie's; "she's got ...": hers,
                # whoever she is.
                if owner := them.group("owner"):
                    name, role = POSSESSIVE.sub("", m.group(name_at)), m.group(role_at).lower()
                    owner = owner[:1].upper() + owner[1:]
                    about = _about(m.group(name_at), _rest(text, m.end()))
                    of = None if owner.lower().startswith("my ") else (owner, role)
                    out.append(PersonFact(name, "", f"{owner}'s {role_of(role)}.{about}", of=of))
                continue
            if pattern is NEW_ROLE_AFTER and (
                _SOMEONE_ELSES.search(before := _sentence_before(text, m.start()))
                or not _LEFT_THE_USER.search(before)
            ):
                continue  # "My sister moved to Leeds, new GP is Dr Khan": hers
            # "my sister Ana's birthday": Ana ("O'Brien" keeps its apostrophe).
            # (TAKES_OVER_AS and NEW_HOLDER say the role one of two ways: the group after.)
            said, role = m.group(name_at), m.group(role_at) or m.group(role_at + 1)
            if pattern is NEW_HOLDER and m.group(3) and " " in said.strip():
                continue  # "Harry Kane is captain now": a first name alone in that form
            name = POSSESSIVE.sub("", said)
            # ...and what follows is Ana's: "my cousin Inês's wedding, flight TP1351".
            about = _about(said if subject else "", _rest(text, m.end()))
            # "my contact at Moss & Fern is Daniel": where they are the user's contact.
            at = _AT.search(m.group(0)) if pattern is ROLE_IS_NAME else None
            where = f" at {at.group(1)}" if at else ""
            if any((p.name, p.role) == (name, role.lower()) for p in out):
                continue  # "Booked the photographer, Sam Ortiz, ...": hired, and named so
            if NOT_SOMEONE.search(name):
                continue  # "my main client is Lindqvist Legal": a firm, no one's name
            out.append(PersonFact(name, role.lower(), f"The user's {role_of(role)}{where}.{about}"))
    for pattern, owner_at, role_at, name_at, subject in (
        (THEIR_ROLE_IS_NAME, 1, 2, 3, True),
        (NAME_IS_THEIR_ROLE, 2, 3, 1, False),
    ):
        for m in pattern.finditer(text):
            if _asked(text, m.start()):
                continue
            said, role = m.group(name_at), m.group(role_at).lower()
            name, owner = POSSESSIVE.sub("", said), m.group(owner_at)
            owner = owner[:1].upper() + owner[1:]
            about = _about(said if subject else "", _rest(text, m.end()))
            of = None if owner.split()[0].lower() in _PLACES else (owner, role)
            out.append(PersonFact(name, "", f"{owner}'s {role_of(role)}.{about}", of=of))
    for m in STEPPED_DOWN.finditer(text):
        # "Dean's stepping down as captain": Dean.
        name = POSSESSIVE.sub("", m.group(1) or m.group(3))
        role = (m.group(2) or m.group(4)).lower()
        if not _asked(text, m.start()):
            left = f"{name} left the role of {role}."
            out.append(PersonFact(name, "", left, left=role))
    for m in NAME_WHO_WORKS.finditer(text):
        if not _asked(text, m.start()) and not any(p.name == m.group(1) for p in out):
            out.append(PersonFact(m.group(1), "", f"{m.group(1)}, {m.group(2)} at {m.group(3)}."))
    # "Our landlord Mr Gordon says ...": the landlord Gordon, not a second person.
    introduced = {form(p.name) for p in out}
    for m in REPORTER.finditer(text):
        name = m.group(1) or without_opener(m.group(2))
        key = form(name)
        if key in introduced or name.split()[0] in ("The", "Our", "My", "We", "I"):
            continue
        if NOT_SOMEONE.search(name):
            continue  # a team, a product, a firm or a place says things too
        introduced.add(key)
        said = text[m.start() : m.end(1)] if m.group(1) else name  # "Dr. Patel"
        # "... owns the auth service, and Jonas Berg handles ...": up to the next subject.
        does = ""
        if m.group("does"):
            tail = _CLAUSE_END.split(text[m.end() : m.end() + 400], maxsplit=1)[0]
            does = _NEXT_SUBJECT.split(tail)[0].strip(" ,")[:200]
        if does:
            out.append(PersonFact(name, "", f"{said} {m.group('does')} {does}."))
        else:
            out.append(PersonFact(name, "", f"{said}, someone the user talks about."))
    for pattern in ALIAS:
        for m in pattern.finditer(text):
            name, alias = m.group(1), _clean(m.group(2))
            if alias.lower() == name.lower() or alias.split()[0] in ("Everyone", "People"):
                continue
            rest = _rest(text, m.end())
            desc = f"{name} (also called {alias})." + _about(name, rest)
            out.append(PersonFact(name, "", desc, (alias,)))
    return out
