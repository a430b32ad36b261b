"""What each rule of RULINGS.md decides, in a sentence the Mayor reads beside a feed line's "why"
(instead of its ID). Keys are RULINGS.md's IDs; values are translated when shown."""

from django.utils.translation import gettext_lazy as _

NOTES = {
    "FR-CARD-1": _("Card values: 2 to 10 as numbered, J 11, Q 12, K 13, Ace 14, joker 15."),
    "FR-CARD-2": _("A joker is of the suit declared by whoever plays it, player or Mayor, when it is played."),
    "FR-CARD-3": _("Suit of each trait: ♠ Hands, ♣ Senses, ♥ Muscle, ♦ Head. ♠ and ♣ are black, ♥ and ♦ red."),
    "FR-CARD-4": _("A deck: 52 cards and the session's jokers (2 by default). "
                   "One deck per 4 players, Mayor included, or as the Mayor sets."),
    "FR-CARD-5": _("The dead man's hand (A♠ A♥ 8♣ 8♦) is set aside before the session starts, "
                   "or taken from an extra deck."),
    "FR-MODE-1": _("Three modes for a session: Normal (the recommended one), No management and Attrition."),
    "FR-MODE-2": _("Normal: everyone, Mayor included, gets 8 random cards face down in their deck, "
                   "unseen until phase 2 but for exchanges."),
    "FR-MODE-3": _("Normal: the treasure deck starts empty, unless the Mayor seeds it from an extra deck."),
    "FR-MODE-4": _("Phase 1: draws come from the pile; "
                   "played cards and treasure won join the player's deck, the rest the shared discard."),
    "FR-MODE-5": _("Pile short: the shared discard is shuffled in. Both short: all goes to the treasure deck; "
                   "the check is made in phase 2."),
    "FR-MODE-6": _("The Mayor may skip phase 1: "
                   "all cards are dealt at random among the players and phase 2 starts at once."),
    "FR-MODE-7": _("Phase 2: each draws from their own deck, shuffled before each check; "
                   "played cards go to their discard, the rest back."),
    "FR-MODE-8": _("Phase 2: a short deck draws only what it holds; "
                   "only a deck empty as a check starts gets its discard shuffled back."),
    "FR-MODE-9": _("A latecomer gets 8 random cards of an added deck (maybe back to phase 1) or 1 to 3 random cards of "
                   "each other deck."),
    "FR-MODE-10": _("No management: one shared deck; after every check all drawn cards go back and it is reshuffled."),
    "FR-MODE-11": _("Attrition: a full deck each (the Mayor's minus the dead man's hand); "
                    "played cards return only with rest, 8 an hour."),
    "FR-MODE-12": _("No gifts and no free swaps between players: cards change owner only through an exchange."),
    "FR-CHAR-1": _("Four traits, each starting at 1: Hands ♠, Senses ♣, Muscle ♥, Head ♦."),
    "FR-CHAR-2": _("Ten skills, each tied to a trait and a group (Weapons, Mechanical, Exploration); "
                   "a skill is held or not, no score."),
    "FR-CHAR-3": _("Creation: a skill per group, 8 trait points (max 9 in one), another skill; "
                   "horse, revolver or 10 knives, $50 of gear."),
    "FR-CHAR-4": _("Endurance is Muscle + 4; Confidence is the highest trait + 4. "
                   "Cover and mounts change Endurance only in combat."),
    "FR-CHAR-5": _("Gear: an editable catalogue; "
                   "ranged and thrown weapons add or remove cards per range band, the adjacent −1 included."),
    "FR-CHAR-6": _("NPCs use the same sheet; "
                   "a minion may instead have a flat number of cards per check and a flat Endurance."),
    "FR-CHK-1": _("Cards: trait, +2 with the skill, + gear, − Health, Morale and Sobriety penalties, "
                  "± range. 0 or less: Failure, no draw."),
    "FR-CHK-2": _("The player looks at the cards drawn and plays exactly one (some combat techniques play more); "
                  "the rest go unchosen."),
    "FR-CHK-3": _("Trait's suit: Success; same colour: Partial success; other colour: Failure. "
                  "A joker counts as its declared suit."),
    "FR-CHK-4": _("With a difficulty, the right suit below it is a Partial success, "
                  "and the right colour in the wrong suit a Failure."),
    "FR-CHK-5": _("Medical attention: Head (Lore), Success only; on oneself a ♦ of 8 or more. Healer's kit +1 card. "
                  "Only speeds recovery."),
    "FR-CHK-6": _("Dead man's hand: 1 card (2 if the Mayor allows, keeping the better); "
                  "an Ace gives the better outcome, an 8 the worse."),
    "FR-OPP-1": _("Opposed check: each draws for their own trait (+2 with the skill), picks a card in secret, "
                  "and all reveal at once."),
    "FR-OPP-2": _("If only one participant plays the suit of their trait, that one wins and all the others lose."),
    "FR-OPP-3": _("If several play their suit, the highest value among them wins; "
                  "a shared highest is a tie between them; the rest lose."),
    "FR-OPP-4": _("If nobody plays their suit, the highest card of the right colour wins; a shared highest is a tie; "
                  "the rest lose."),
    "FR-OPP-5": _("If nobody plays their suit or colour, it is a tie and another opposed check is needed."),
    "FR-OPP-6": _("Chase, stealth, pickpocket, challenge, provoke: each side's trait; "
                  "a challenge or provocation may cost Morale."),
    "FR-HLT-1": _("Health: Unhurt, Wounded (−1 card), Badly wounded (−2 cards), Incapacitated and Dead (no actions); "
                  "never below Dead."),
    "FR-HLT-2": _("Recovery (medical/rest/none): Wounded 1 h/8 h/1 day; Badly wounded 8 h/1 day/3 days; "
                  "Incapacitated 7 days/1 month/never."),
    "FR-HLT-3": _("Dead: by the 5th turn's end, "
                  "a dead man's hand gives Incapacitated or dead for good (2 cards with medical attention)."),
    "FR-HLT-4": _("Falls: −1 Health per 5 m; a train −4, a coach or horse −2. "
                  "Muscle (Agility): Success saves 2, Partial success 1."),
    "FR-MOR-1": _("Morale: Steady, Scared (−1 card), Terrified (−2 cards), Paralysed (no actions); "
                  "never below Paralysed."),
    "FR-MOR-2": _("One Morale level back (dead man's hand, better/worse): Scared 8 h/1 day, Terrified 1 h/8 h, "
                  "Paralysed 1 turn/1 minute."),
    "FR-MOR-3": _("Threat: the Mayor draws a random card; "
                  "if its value beats the character's Confidence, they lose 1 Morale."),
    "FR-SOB-1": _("Tipsy: a dead man's hand at each check (Ace +1 card, 8 −1). Drunk: −2 cards, swap with "
                  "the Mayor in Normal mode. In a coma: no actions."),
    "FR-SOB-2": _("Drinking duel: from half Endurance (rounded up), each drink a dead man's hand (stay/−1 Sobriety). "
                  "First in a coma loses."),
    "FR-SOB-3": _("Alcohol +1 a drink; over half Endurance (rounded up): dead man's hand; "
                  "over 1×/2×/3×: at least Tipsy/Drunk/In a coma."),
    "FR-CMB-1": _("Combat is simultaneous: NPCs declare and draw first, then the players; "
                  "all choose in secret and reveal at once."),
    "FR-CMB-2": _("Per turn: act and move 3 m (Adjacent), or just move 10 m (Short). Picking up a weapon is an action; "
                  "taking cover, a move."),
    "FR-CMB-3": _("Positions and cover change only at the end of the turn; "
                  "attacks target where the target stood when the turn began."),
    "FR-CMB-4": _("The technique is chosen before drawing and fixes trait, skill and attacks: Hands for all but Aim, "
                  "which uses Senses."),
    "FR-CMB-5": _("No partial successes in combat: a card of the technique's suit hits, anything else misses."),
    "FR-CMB-6": _("With Brawl or Quick draw: +1 card played per 2 Hands points, "
                  "each an attack (thrown: as many as carried). Aim: one shot."),
    "FR-CMB-7": _("Damage per hit = base + weapon. Base: Brawl, melee, thrown 1 (2 with Strength); Quick draw 1; "
                  "Aim 3."),
    "FR-CMB-8": _("Hit card below the target's Endurance: damage −3; equal: −2; above: full damage. Never below 0."),
    "FR-CMB-9": _("Cover to Endurance: partial +1, total +2 (no Aim from it). "
                  "Firing at a walk, trot or gallop: target +1, +2, +3, no Aim."),
    "FR-CMB-10": _("Weapons holstered at the turn's start: no Aim, "
                   "and no 3 m move with the attack unless using knives with a knife holster."),
    "FR-CMB-11": _("Adjacent < 3 m, Short 3-10 m, Medium 10-40 m, Long 40-200 m. Brawl and melee: Adjacent only; "
                   "thrown: up to Short."),
    "FR-CMB-12": _("Jams: on combat turn 5 and every 5th after, all draw a dead man's hand; "
                   "an Ace keeps shooting, an 8 loses the turn."),
    "FR-CMB-13": _("Seize: declared before drawing; a Brawl or lasso hit holds without damage; "
                   "each turn opposed Muscle keeps or breaks it."),
    "FR-CMB-14": _("Scare: declared before drawing; no damage; "
                   "each hit whose card beats the target's Confidence costs 1 Morale."),
    "FR-CMB-15": _("Pistol duel: opposed Hands (Quick draw), no absorption. The loser takes a full-damage hit; "
                   "on a tie both do."),
    "FR-CMB-16": _("The book's combat example (Djamal against the minions), "
                   "corrected so that only the technique's suit hits."),
    "FR-GMB-1": _("Three kinds of gambling: The house always wins (against the house), "
                  "Game of chance and Game of skill."),
    "FR-GMB-2": _("The house: the Mayor's deck plus the dead man's hand, a card a round; "
                  "♠ scores for the player, others for the house."),
    "FR-GMB-3": _("Leaving the house: Head (Cunning) after a round. Failure plays on; Partial success, one more round; "
                  "Success leaves now."),
    "FR-GMB-4": _("Settling: each point the house leads by, −1/4 of the money; "
                  "each point the player leads by, +1/4, doubling past 4."),
    "FR-GMB-5": _("Game of chance: opposed Head (Cunning). Winner's dead man's hand: an Ace doubles the money. "
                  "Loser's: an 8 loses it all."),
    "FR-GMB-6": _("Cheating (house or chance): Hands (Knack), not Head (Cunning). A win pays double; "
                  "a loss: caught, all money lost."),
    "FR-GMB-7": _("Game of skill: opposed check of the fitting trait and skill, e.g. "
                  "darts with Hands (Brawl), chess with Head (Cunning)."),
    "FR-EXCH-1": _("In an exchange a player's deck is all their cards, deck and discard; "
                   "cards received go into the deck."),
    "FR-EXCH-2": _("Bet: winner picks a card of the loser's deck and gives one back; tie: a random card each "
                   "way; a caught cheat loses one the rival picks, gets none."),
    "FR-EXCH-3": _("Duel: the winner may take up to 2 chosen cards of the loser's, giving as many back; "
                   "a tie swaps 2 random cards each way."),
    "FR-EXCH-4": _("A protagonist who dies and leaves the game puts all their cards into the treasure deck."),
    "FR-EXCH-5": _("Normal mode. Drunk: a random card swaps with a random card of the Mayor's deck. In a "
                   "coma: a random card for one the Mayor chooses."),
    "FR-EXCH-6": _("Treasure: sharers decide who keeps a random treasure card; "
                   "the others may swap a card (all, if none). Never the Mayor."),
    "FR-EXCH-7": _("In phase 1 the winner of an exchange may look at their own deck; nobody else's deck is shown."),
    "FR-ODDS-1": _("The odds of drawing at least one card of the needed suit or colour, "
                   "computed exactly from the cards left."),
}
