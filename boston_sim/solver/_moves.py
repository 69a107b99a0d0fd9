"""Move generation and ordering (DDS's ``Moves``): the legal cards of the seat to play, one
per group of equivalent cards, best first by heuristic weights (they order, never prune).

The weights fall in a few cases: a lead to win tricks (a winner cashed or a low lead, with
corrections for two against two and for a lone declarer), a misère defender's lead, and a
card played to a trick under way (a winner, a duck or a discard). Every helper is inlined
into ``gen_moves``, which runs once per expanded node.
"""

from __future__ import annotations

from ..config import JIT_NONRT
from ._bits import highbit_index, lowbit_index, popcount
from ._escape import defenders_lowest, suit_ducks
from ._jit import njit
from ._layout import (
    F_BP,
    F_CARD,
    F_KILL,
    F_NEED,
    F_R,
    F_TM,
    MOVE_SLOTS,
    NT,
    P_COUNTMASK,
    P_MAXMASK,
    P_TRUMP,
    is_lone_misere,
    is_max_game,
    other_side,
)
from ._trick import beaten_later, beats

# --- leads, every weight higher first
# points off a lead per card the opponents hold in its suit (a void opponent counts as one
# more than the tricks left: he may play any card): keeps their replies, and so the proof,
# small (DDS's weight)
LEAD_OPP_CARD = 10
KILL_BONUS_1 = 50  # the last lead that cut off at this ply
KILL_BONUS_2 = 30  # the one before it
CASH_LONE = 200  # a lone declarer cashes his winners before low leads
CASH = 130  # for everyone else a winner ranks with the low leads: the opponents' cards decide
CASH_LENGTH = 2  # per card of the winner's suit: cash the long suit first
CASH_LATER = 120  # a winner that can wait: a defender's top trump, or one an opponent ruffs
LOW_LEAD = 100  # a low lead, less its rank
LOW_LEAD_LENGTH = 3  # per card of its suit: lead from length
TO_PARTNER_TOP = 30  # two against two: towards the partner's top card of the suit
TO_MATE_TOP = 60  # a defender of a lone declarer: towards a teammate's top card
INTO_LAST_TOP = -10  # into an opponent's top card that plays last to the trick
INTO_RUFF = -20  # into a suit an opponent ruffs
TO_PARTNER_RUFF = 40  # two against two: into the partner's ruff
PASSIVE = 200  # defender: a side suit the declarer tops and is no longer in (sets up nothing)
PAIR_INTO_TENACE = -12  # not into the last hand's top or second card (not a singleton)
PAIR_SECOND_THIRD = 20  # the partner holds the second and third cards: the next round is ours
PAIR_SECOND_THIRD_SPLIT = 13  # the side holds them between the leader and the partner
DRAW_TRUMPS = 100  # a lone declarer longer in trumps than every defender draws theirs first
SHORT_SUIT = 150  # a lone declarer's singleton or doubleton side suit, with trumps to ruff ...
SHORT_SUIT_LENGTH = 40  # ... less this per card: level with his trump leads, before low leads
# ... and the top of a side-suit sequence with one card above it (knocking that out sets the
# suit up), level with his trump leads: where a low trump lead fails, its refutation can run
# to millions of nodes
SET_UP = 100
UNDER_DECLARER = 300  # misère defence: a lead under the declarer's lowest card of the suit
OVER_DECLARER = 150  # ... one that is not under it (the declarer may duck)
# misère declarer on lead (the first trick only: he never leads again while he escapes): a
# card some defender must beat first, the highest first (it sheds a card that could win
# later), from a suit he cannot duck every round of, and from a short suit (a void sooner
# lets him discard), before the others
SURE_LOSS_LEAD = 300
SURE_LOSS_WEAK = 20
SURE_LOSS_LENGTH = 3  # points off per card he holds in the suit

# --- a card played to a trick under way
HELPS = 500  # leaves the trick to the side the player wants it for, before any that does not
CHEAP_WINNER = 64  # a winner, less its rank: the cheapest first
SURE_WINNER = 200  # ... one that no later opponent can beat, first
SECOND_HAND_LOW = 16  # two against two, second hand whose partner covers the third: low first
OVERTAKE = 32  # a card that wins for the wrong side, or overtakes a sure teammate: cheapest
LOW_CARD = 32  # a card that does not win, less its rank
TRUMP_SPENT = 16  # ... less this for a trump
DISCARD_LENGTH = 2  # a discard, per card of its suit: from length, keeping short suits' guards
LONE_DISCARD = 14  # a lone declarer with trumps discards from his shortest side suit instead
DUCK_FIRST = 1000  # defenders of a lone declarer: let a later defender win the trick
DANGER = 64  # misère declarer: discard first from a suit where low leads could force him
SHED = 200  # misère defender whose card cannot matter: shed high cards, keep low ones to lead
SETTLED = 600  # the team's card wins the trick already: the cheapest card


@njit(**JIT_NONRT, inline="always")
def _others_in_suit(hl, fr, ply, pos, s, mine):
    """The cards of suit ``s`` still in play besides ``mine`` (the player's): the other
    hands' and those played to the trick under way. A card of ``mine`` is equivalent to the
    next one up when none of these lies between them."""
    others = (hl[s] | hl[4 + s] | hl[8 + s] | hl[12 + s]) & ~mine
    if pos > 0:
        others |= (fr[ply - 1, F_TM] >> (16 * s)) & 0xFFFF
    return others


@njit(**JIT_NONRT, inline="always")
def _one_follow(hl, fr, seat, pos, mv, ply):
    """Following suit with cards that are all equivalent (no other card lies between them):
    one move, nothing to order (a third of the nodes). 1 if so (``mv[ply]`` filled), else 0."""
    led = fr[ply - pos, F_CARD] >> 4
    mine = hl[seat * 4 + led]
    if mine != 0:
        lo = lowbit_index(mine)
        hi = highbit_index(mine)
        others = _others_in_suit(hl, fr, ply, pos, led, mine)
        if (others >> lo) & ((1 << (hi - lo)) - 1) == 0:
            mv[ply, 0] = led * 16 + hi
            mv[ply, MOVE_SLOTS] = 0
            mv[ply, 2 * MOVE_SLOTS] = lo
            return 1
    return 0


@njit(**JIT_NONRT, inline="always")
def _cash_weight(hl, seat, s, rank, mine, trump, countmask, in_count, team):
    """A lead of the suit's top card."""
    sc = (CASH_LONE if popcount(team) == 1 else CASH) + rank + CASH_LENGTH * popcount(mine)
    if s == trump and popcount(team) == 3:
        sc = CASH_LATER + rank  # defenders of a lone declarer: a top trump is theirs anyway
    if trump != NT and s != trump:
        for o in range(1, 4):
            so = (seat + o) & 3
            if (((countmask >> so) & 1) != in_count and hl[so * 4 + s] == 0
                    and hl[so * 4 + trump] != 0):
                sc = CASH_LATER + rank
    return sc


@njit(**JIT_NONRT, inline="always")
def _low_lead_weight(hl, seat, s, rank, mine, top, trump, countmask, in_count, pair, decl,
                     passive):
    """A lead of a card below the suit's top: towards a teammate's top card; not into an
    opponent's top card that plays after us, nor into an opponent's ruff."""
    sc = LOW_LEAD - rank + LOW_LEAD_LENGTH * popcount(mine)
    for o in range(1, 4):
        so = (seat + o) & 3
        ho = hl[so * 4 + s]
        mate = ((countmask >> so) & 1) == in_count
        if ho != 0 and highbit_index(ho) == top:
            sc += (TO_PARTNER_TOP if pair else TO_MATE_TOP) if mate else (
                INTO_LAST_TOP if o == 3 else 0)
        if trump != NT and s != trump and ho == 0 and hl[so * 4 + trump] != 0:
            if not mate:
                sc += INTO_RUFF
            elif pair:
                sc += TO_PARTNER_RUFF
    if (passive and s != trump and (hl[decl * 4 + s] >> top) & 1
            and popcount(hl[decl * 4 + s]) <= popcount(mine)):
        sc += PASSIVE
    return sc


@njit(**JIT_NONRT, inline="always")
def _pair_lead_weight(hl, seat, s, rank, mine, allc, top):
    """Two against two (DDS's weights): not into an opponent's top or second card that plays
    last and is not a singleton; a suit whose second and third cards are the side's makes its
    next round the side's."""
    sc = 0
    hr = hl[((seat + 3) & 3) * 4 + s]
    hp = hl[((seat + 2) & 3) * 4 + s]
    u2 = allc & ~(1 << top)
    r2 = highbit_index(u2) if u2 != 0 else -1
    if popcount(hr) > 1 and ((hr >> top) & 1 or (r2 >= 0 and (hr >> r2) & 1)):
        sc += PAIR_INTO_TENACE
    u3 = u2 & ~(1 << r2) if r2 >= 0 else 0
    if rank != top and u3 != 0:
        r3 = highbit_index(u3)
        if (hp >> r2) & 1 and (hp >> r3) & 1:
            sc += PAIR_SECOND_THIRD
        elif popcount(hp) > 1 and (((mine >> r2) & 1 and (hp >> r3) & 1)
                                   or ((hp >> r2) & 1 and (mine >> r3) & 1)):
            sc += PAIR_SECOND_THIRD_SPLIT
    return sc


@njit(**JIT_NONRT, inline="always")
def _knocks_out_stopper(rank, mine, others):
    """Is ``rank`` the top of a sequence of at least two of ``mine`` (the next card down is
    also his) with exactly one card of ``others`` above it?"""
    below = (mine | others) & ((1 << rank) - 1)
    return (below != 0 and (mine >> highbit_index(below)) & 1 == 1
            and popcount(others >> (rank + 1)) == 1)


@njit(**JIT_NONRT, inline="always")
def _lone_declarer_lead_weight(s, rank, top, mine, others, trump, team, opp_longest,
                               lone_trumps):
    """A lone declarer draws trumps when longer than every defender (shorter, he keeps them to
    ruff with: cashing his top trump early leaves a bare "one more trick" to prove), and leads
    a short side suit he can ruff later, or one he sets up by knocking out its last stopper,
    about level with his trump leads."""
    sc = 0
    if s == trump and popcount(team) == 1 and others != 0:
        if popcount(mine) > opp_longest:
            sc += DRAW_TRUMPS
    short = popcount(mine)
    if s != trump and short <= 2 and others != 0 and lone_trumps > short:
        sc += SHORT_SUIT - SHORT_SUIT_LENGTH * short
    if (popcount(team) == 1 and s != trump and rank != top
            and _knocks_out_stopper(rank, mine, others)):
        sc += SET_UP
    return sc


@njit(**JIT_NONRT, inline="always")
def _misere_defence_lead_weight(hl, lone, s, rank):
    """A misère defender's lead: a suit where the declarer's lowest card is high and the lead
    ducks under it, so he cannot duck in turn."""
    dl = hl[lone * 4 + s]
    if dl == 0:
        return LOW_LEAD - rank
    nl = lowbit_index(dl)
    if rank < nl:
        return UNDER_DECLARER + nl - rank
    return OVER_DECLARER - rank


@njit(**JIT_NONRT, inline="always")
def _misere_declarer_lead_weight(hl, d, s, rank):
    """The misère declarer's lead: first a card that loses for sure (a defender holds only
    higher cards of the suit, so must beat it), the highest first, from a suit failing
    ``suit_ducks`` and from a short suit first; then the others, lowest first."""
    over = defenders_lowest(hl, d, s)
    if rank >= over:
        return LOW_LEAD - rank
    sc = SURE_LOSS_LEAD + rank - SURE_LOSS_LENGTH * popcount(hl[d * 4 + s])
    if not suit_ducks(hl, s, d):
        sc += SURE_LOSS_WEAK
    return sc


@njit(**JIT_NONRT, inline="always")
def _forced_over(hl, leader, pos, led, card):
    """A later seat of the trick must follow suit above ``card`` (of the suit led): it
    holds the suit, and only higher cards of it."""
    if card >> 4 != led:
        return False
    for i in range(pos + 1, 4):
        lane = hl[((leader + i) & 3) * 4 + led]
        if lane != 0 and lowbit_index(lane) > (card & 15):
            return True
    return False


@njit(**JIT_NONRT, inline="always")
def _killer_bonus(fr, ply, seat, card):
    """The bonus of the last two leads that cut off at this ply."""
    if card == fr[ply, F_KILL + 2 * seat]:
        return KILL_BONUS_1
    if card == fr[ply, F_KILL + 2 * seat + 1]:
        return KILL_BONUS_2
    return 0


@njit(**JIT_NONRT, inline="always")
def _winner_weight(hl, rank, card, leader, pos, led, trump, team, want_own, pair):
    """A card that wins the trick so far for the side the player wants it for."""
    sc = HELPS + CHEAP_WINNER - rank
    if want_own and pos < 3:
        if not beaten_later(hl, leader, pos, led, trump, card, team):
            sc += SURE_WINNER
        elif pair and pos == 1:
            # second hand: the third hand can beat this card, but the partner (last to play)
            # holds a higher card of the suit than the third hand: low cards first
            l3 = hl[((leader + 2) & 3) * 4 + led]
            l4 = hl[((leader + 3) & 3) * 4 + led]
            if l3 != 0 and l4 != 0 and highbit_index(l4) > highbit_index(l3):
                sc = SECOND_HAND_LOW - rank
    return sc


@njit(**JIT_NONRT, inline="always")
def _follow_weight(hl, s, rank, card, mine, best, leader, pos, led, trump, team, want_own,
                   good_now, pair, discarding, lone_trumps, duck_first, danger, shed, settled,
                   mdecl):
    """A card played to a trick under way (``best``: the card winning it so far). The misère
    declarer (``mdecl``) takes a card a later seat must beat as a duck: the highest first."""
    bt = beats(card, best, trump)
    if bt and mdecl and _forced_over(hl, leader, pos, led, card):
        bt = False
    good = want_own if bt else good_now
    trump_cost = TRUMP_SPENT if s == trump else 0
    if bt:
        sc = (_winner_weight(hl, rank, card, leader, pos, led, trump, team, want_own, pair)
              if good else OVERTAKE - rank)
    elif good and not want_own:
        sc = HELPS + rank  # duck with the highest card that ducks
    else:
        sc = (HELPS if good else 0) + LOW_CARD - rank - trump_cost
    if not bt and discarding and not (good and not want_own):
        # a discard that does not help the trick
        if lone_trumps > 0 and s != trump:
            sc += DISCARD_LENGTH * (LONE_DISCARD - popcount(mine))
        else:
            sc += DISCARD_LENGTH * popcount(mine)
    if duck_first and not bt:
        sc += DUCK_FIRST
    if (danger >> s) & 1:
        sc += DANGER
    if shed and not bt:
        sc = SHED + rank
    elif settled:
        if bt:
            sc = OVERTAKE - rank  # overtaking a teammate's card that wins the trick anyway
        else:
            sc = SETTLED + LOW_CARD - rank - trump_cost
            if discarding:
                sc += DISCARD_LENGTH * popcount(mine)
    return sc


@njit(**JIT_NONRT, inline="always")
def _misere_danger(hl, fr, ply, seat, pos, maxmask, countmask, is_max, in_count):
    """The lone declarer of the misère game, void in the suit led: a bit per suit he may not
    be able to duck every round of (0 for everyone else)."""
    danger = 0
    if (not is_max and in_count and is_lone_misere(maxmask, countmask) and pos > 0
            and hl[seat * 4 + (fr[ply - pos, F_CARD] >> 4)] == 0):
        for s in range(4):
            if not suit_ducks(hl, s, seat):
                danger |= 1 << s
    return danger


@njit(**JIT_NONRT, inline="always")
def _insert(mv, ply, n, card, sc, seq_low):
    """Insert a move among the ``n`` already in ``mv[ply]``, scores descending."""
    j = n
    while j > 0 and mv[ply, MOVE_SLOTS + j - 1] < sc:
        mv[ply, j] = mv[ply, j - 1]
        mv[ply, MOVE_SLOTS + j] = mv[ply, MOVE_SLOTS + j - 1]
        mv[ply, 2 * MOVE_SLOTS + j] = mv[ply, 2 * MOVE_SLOTS + j - 1]
        j -= 1
    mv[ply, j] = card
    mv[ply, MOVE_SLOTS + j] = sc
    mv[ply, 2 * MOVE_SLOTS + j] = seq_low


@njit(**JIT_NONRT, inline="always")
def _lead_weight(hl, fr, ply, seat, s, rank, mine, others, top, trump, countmask, in_count,
                 team, want_own, lone, pair, decl, passive, opp_cards, opp_longest, lone_trumps,
                 mdecl):
    """The ordering weight of leading card ``rank`` of suit ``s``: the max game's cases (cash,
    low lead, two against two, a lone declarer's), a misère defender's, or lowest first."""
    if want_own:
        if rank == top:
            sc = _cash_weight(hl, seat, s, rank, mine, trump, countmask, in_count, team)
        else:
            sc = _low_lead_weight(hl, seat, s, rank, mine, top, trump, countmask, in_count,
                                  pair, decl, passive)
        if pair:
            sc += _pair_lead_weight(hl, seat, s, rank, mine, mine | others, top)
        sc -= opp_cards
        sc += _lone_declarer_lead_weight(s, rank, top, mine, others, trump, team, opp_longest,
                                         lone_trumps)
    elif lone >= 0:
        sc = _misere_defence_lead_weight(hl, lone, s, rank)
    elif mdecl:
        sc = _misere_declarer_lead_weight(hl, seat, s, rank)
    else:
        sc = LOW_LEAD - rank
    return sc + _killer_bonus(fr, ply, seat, s * 16 + rank)


@njit(**JIT_NONRT, inline="always")
def _follow_state(hl, fr, seat, pos, leader, ply, trump, countmask, in_count, want_own, team,
                  decl, lone):
    """Following to a trick: the suits that may be played, the card winning so far, whether
    it is the team's (``good_now``) and settled for it, whether to duck first, the suit led,
    and whether a misère defender may shed (the declarer is already beaten, or a void).
    On lead: every suit, and nothing to follow."""
    if pos == 0:
        return 0, 4, 0, 0, False, False, -1, False
    s_lo = 0
    s_hi = 4
    shed = False
    settled = False
    base = ply - pos
    led = fr[base, F_CARD] >> 4
    if hl[seat * 4 + led] != 0:
        s_lo = led
        s_hi = led + 1
    bp = fr[ply - 1, F_BP]
    best = fr[base + bp, F_CARD]
    wseat = (leader + bp) & 3
    same = 1 if ((countmask >> wseat) & 1) == in_count else 0
    good_now = 1 if same == want_own else 0
    # does the team's card win the trick whatever the opponents after this one do? (a
    # later teammate's card wins for the team too; only asked when the team is winning
    # it: the answer orders its cards)
    if want_own and good_now:
        settled = not beaten_later(hl, leader, pos, led, trump, best, team)
    # defenders of a lone declarer whose card wins a side-suit trick so far: when a later
    # defender can beat it, the cards that do not are tried first (let him win it; keep
    # this one's winner or trump)
    duck_first = (decl >= 0 and not good_now and led != trump
                  and beaten_later(hl, leader, pos, led, trump, best, 1 << decl))
    if lone >= 0:
        if hl[seat * 4 + led] == 0:
            shed = True
        else:
            # has the declarer played to this trick, and is he beaten?
            for i in range(pos):
                if (leader + i) & 3 == lone and (leader + bp) & 3 != lone:
                    shed = True
    return s_lo, s_hi, best, good_now, settled, duck_first, led, shed


@njit(**JIT_NONRT, inline="always")
def _opponents_in_suit(hl, s, countmask, in_count, rl):
    """A lead's penalty for the opponents' replies in suit ``s`` (LEAD_OPP_CARD a card, a void
    counting as the tricks left plus one) and their longest holding of it."""
    opp_cards = 0
    opp_longest = 0
    for o in range(4):
        if ((countmask >> o) & 1) != in_count:
            ko = popcount(hl[o * 4 + s])
            if ko > opp_longest:
                opp_longest = ko
            opp_cards += LEAD_OPP_CARD * (ko if ko > 0 else rl + 1)
    return opp_cards, opp_longest


@njit(**JIT_NONRT, inline="always")  # (its only caller is the search: one copy)
def gen_moves(hl, fr, P, seat, pos, leader, mv, ply):
    """Fill ``mv[ply]`` with the legal moves of ``seat`` (one card per group of equivalent
    cards: the highest of the group, with the group's lowest rank in the third block), ordered
    best-first; return their number."""
    if pos > 0 and _one_follow(hl, fr, seat, pos, mv, ply):
        return 1
    trump = P[P_TRUMP]
    maxmask = P[P_MAXMASK]
    countmask = P[P_COUNTMASK]
    in_count = (countmask >> seat) & 1
    is_max = (maxmask >> seat) & 1
    # in the max game everyone wants his own team to win the trick; in the misère game the
    # other team (a heuristic only: it orders moves, it never prunes)
    want_own = 1 if is_max == in_count else 0
    lone = -1  # the lone declarer, when a defender plays in the misère game
    if is_max and not in_count and is_lone_misere(maxmask, countmask):
        lone = lowbit_index(countmask)
    danger = _misere_danger(hl, fr, ply, seat, pos, maxmask, countmask, is_max, in_count)
    mdecl = not is_max and in_count and is_lone_misere(maxmask, countmask)  # misère declarer
    # two against two (a lone player's opponents share out the ruffs less simply)
    pair = popcount(countmask) == 2
    team = countmask if in_count else other_side(countmask)
    # a lone declarer's trumps (0 for everyone else): short side suits are his to ruff
    lone_trumps = 0
    if popcount(team) == 1 and trump != NT:
        lone_trumps = popcount(hl[seat * 4 + trump])
    # a defender of a lone declarer (seat ``decl``) in the max game
    decl = (lowbit_index(countmask) if popcount(team) == 3 and is_max_game(maxmask, countmask)
            else -1)
    # ... leading, while the declarer needs over a third of the tricks left (passive leads)
    passive = decl >= 0 and pos == 0 and 3 * fr[ply, F_NEED] > fr[ply, F_R]
    s_lo, s_hi, best, good_now, settled, duck_first, led, shed = _follow_state(
        hl, fr, seat, pos, leader, ply, trump, countmask, in_count, want_own, team, decl, lone)
    n = 0
    discarding = s_hi - s_lo > 1
    # a lead's penalty for the opponents' replies (LEAD_OPP_CARD): only the max game's
    # leads (``want_own``) are scored with it
    weigh_replies = pos == 0 and want_own
    rl = fr[ply, F_R] if weigh_replies else 0
    for s in range(s_lo, s_hi):
        mine = hl[seat * 4 + s]
        if mine == 0:
            continue
        opp_cards = 0
        opp_longest = 0  # the opponents' longest holding of the suit
        if weigh_replies:
            opp_cards, opp_longest = _opponents_in_suit(hl, s, countmask, in_count, rl)
        others = _others_in_suit(hl, fr, ply, pos, s, mine)
        allc = mine | others
        top = highbit_index(allc)
        x = mine
        low = -1  # lowest card of the sequence being walked (cards come low to high)
        while x != 0:
            b = x & -x
            x ^= b
            above = allc & ~((b << 1) - 1)
            if above != 0 and (above & -above) & mine:
                if low < 0:
                    low = lowbit_index(b)
                continue  # the next card up is also mine: equivalent, skip
            rank = lowbit_index(b)
            if low < 0:
                low = rank
            seq_low = low
            low = -1
            card = s * 16 + rank
            if pos == 0:
                sc = _lead_weight(hl, fr, ply, seat, s, rank, mine, others, top, trump,
                                  countmask, in_count, team, want_own, lone, pair, decl,
                                  passive, opp_cards, opp_longest, lone_trumps, mdecl)
            else:
                sc = _follow_weight(hl, s, rank, card, mine, best, leader, pos, led, trump,
                                    team, want_own, good_now, pair, discarding, lone_trumps,
                                    duck_first, danger, shed, settled, mdecl)
            _insert(mv, ply, n, card, sc, seq_low)
            n += 1
    return n
