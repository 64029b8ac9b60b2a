/* The double-dummy solver's search, in C.
 *
 * This is batak/solver.py's search (Solver._search, _last_card, _probe, _expand,
 * _key and the move ordering) written out in C, step for step: the same cards are
 * tried in the same order, the same table entries are made and looked up, so both
 * visit the same number of nodes and give the same answer (tests/engine check
 * that on thousands of positions). solver.py stays the definition and the
 * fallback: it uses this module when build_native.py has built it, and its own
 * Python search when not.
 *
 * Why C and not only mypyc: compiled with mypyc, the search spends about 2.4 us
 * a node (Python ints for the card masks, a dict keyed by a 123-bit int), and a
 * full 13-card deal's p95 stayed at 4 s, twice the 2 s target. Here a node is a
 * few dozen machine instructions on 64-bit masks and the table is an open
 * addressing hash of two 64-bit words.
 *
 * Cards are 0..51, suit * 13 + rank (rank 0 the two, 12 the ace); a hand is a
 * 52-bit mask. See solver.py for what each step means and why it is sound.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <structmember.h>
#include <string.h>

typedef uint64_t mask_t;

#define BIT(c) ((mask_t)1 << (c))
#define HIST_TOP ((int64_t)1 << 30)
/* the trump_lead codes of batak.play */
#define LEAD_AFTER_RUFF 1

static mask_t SUIT[4];
static mask_t ABOVE[52];
static uint16_t PACK7[1 << 14];
static uint16_t PACK6[1 << 12];
static uint8_t POP7[128];

static inline int popc(mask_t m) { return __builtin_popcountll(m); }
static inline int top_bit(mask_t m) { return 63 - __builtin_clzll(m); } /* m != 0 */

typedef struct {
    uint64_t a, b;
    int32_t v; /* -1: empty */
} slot_t;

typedef struct {
    PyObject_HEAD
    mask_t tmask;
    int overtake;
    int lead_rule;
    int side[4];
    int cheap[52];
    int64_t hist[256];
    slot_t *slots;
    size_t cap;
    size_t used;
    long long nodes;
    long long limit;
} Core;

/* --- the rules of play (batak/play.py) ---------------------------------------- */

static mask_t legal_mask(mask_t hand, const int *trick, int n, mask_t tmask, int broken,
                         int overtake) {
    if (n == 0) {
        if (!broken) {
            mask_t other = hand & ~tmask;
            if (other) return other;
        }
        return hand;
    }
    int led = trick[0];
    int led_high = led;
    int trump_high = (tmask >> led & 1) ? led : -1;
    int suit = led / 13;
    for (int i = 1; i < n; i++) {
        int c = trick[i];
        if (c / 13 == suit && c > led_high) led_high = c;
        if ((tmask >> c & 1) && c > trump_high) trump_high = c;
    }
    mask_t follow = hand & SUIT[suit];
    if (follow) {
        if (trump_high >= 0 && !overtake && !(tmask >> led & 1)) return follow;
        mask_t r = follow & ABOVE[led_high];
        return r ? r : follow;
    }
    mask_t trumps = hand & tmask;
    if (trumps) {
        if (trump_high >= 0) {
            mask_t r = trumps & ABOVE[trump_high];
            return r ? r : trumps;
        }
        return trumps;
    }
    return hand;
}

static inline int breaks_trump(int lead_rule, mask_t tmask, int led, int card) {
    if (!(tmask >> card & 1)) return 0;
    if (lead_rule == LEAD_AFTER_RUFF) return led >= 0 && !(tmask >> led & 1);
    return 1;
}

static int trick_best(const int *trick, int n, mask_t tmask) {
    int best = 0;
    int b = trick[0];
    for (int i = 1; i < n; i++) {
        int c = trick[i];
        if (c / 13 == b / 13) {
            if (c > b) {
                best = i;
                b = c;
            }
        } else if (tmask >> c & 1) {
            best = i;
            b = c;
        }
    }
    return best;
}

/* batak.ai.sim.distinct_cards: of a run of legal cards with no card of ``rest``
 * between them only the highest is kept; ascending. */
static int distinct_cards(mask_t legal, mask_t rest, int *out) {
    int k = 0;
    mask_t m = legal;
    while (m) {
        int c = __builtin_ctzll(m);
        m &= m - 1;
        mask_t above = rest & ABOVE[c];
        if (above && (legal & (above & (~above + 1)))) continue;
        out[k++] = c;
    }
    return k;
}

/* --- small helpers of solver.py ------------------------------------------------- */

static inline int place_of(int card, mask_t rest) { /* _place and _hplace */
    return (card / 13) << 4 | popc(rest & ABOVE[card]);
}

static inline int lead_order(int card, mask_t rest) {
    return (rest & ABOVE[card]) ? card % 13 : -(card % 13);
}

static int from_place(int place, mask_t rest) {
    mask_t r = rest & SUIT[place >> 4];
    for (int i = 0; i < (place & 15); i++) {
        if (!r) return -1;
        r ^= BIT(top_bit(r));
    }
    return r ? top_bit(r) : -1;
}

static void sort64(int64_t *v, int n) { /* insertion sort: at most 13 values */
    for (int i = 1; i < n; i++) {
        int64_t x = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > x) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = x;
    }
}

/* _key: per suit the count of cards still out and two bit planes of who holds them,
 * packed over the cards still out; then leader and broken. Two words. */
static void make_key(const mask_t *hands, int leader, int broken, uint64_t *ka, uint64_t *kb) {
    mask_t h1 = hands[1], h3 = hands[3];
    mask_t plane_a = h1 | h3;
    mask_t plane_b = hands[2] | h3;
    mask_t rest = hands[0] | h1 | hands[2] | h3;
    uint64_t halves[2];
    for (int half = 0; half < 2; half++) {
        uint64_t part = 0;
        for (int s = 0; s < 2; s++) {
            int shift = half * 26 + s * 13;
            unsigned r = (unsigned)(rest >> shift & 0x1FFF);
            if (!r) {
                part <<= 30;
                continue;
            }
            unsigned a = (unsigned)(plane_a >> shift & 0x1FFF);
            unsigned b = (unsigned)(plane_b >> shift & 0x1FFF);
            unsigned rl = r & 0x7F;
            unsigned rh = r >> 7 << 6;
            int gap = POP7[rl];
            rl <<= 7;
            uint64_t pa = PACK7[rl | (a & 0x7F)] | (uint64_t)PACK6[rh | a >> 7] << gap;
            uint64_t pb = PACK7[rl | (b & 0x7F)] | (uint64_t)PACK6[rh | b >> 7] << gap;
            part = part << 30 | (uint64_t)popc(r) << 26 | pa << 13 | pb;
        }
        halves[half] = part;
    }
    *ka = halves[0];
    *kb = halves[1] << 3 | (uint64_t)leader << 1 | (uint64_t)broken;
}

/* --- the transposition table ---------------------------------------------------- */

static inline uint64_t mix64(uint64_t x) { /* splitmix64's finaliser */
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

static inline size_t slot_of(uint64_t a, uint64_t b, size_t cap) {
    return (size_t)mix64(mix64(a) ^ b) & (cap - 1);
}

static int32_t tt_get(const Core *s, uint64_t a, uint64_t b) {
    size_t mask = s->cap - 1;
    size_t i = slot_of(a, b, s->cap);
    for (;;) {
        const slot_t *e = &s->slots[i];
        if (e->v < 0) return -1;
        if (e->a == a && e->b == b) return e->v;
        i = (i + 1) & mask;
    }
}

static slot_t *new_slots(size_t cap) {
    slot_t *slots = PyMem_Malloc(cap * sizeof(slot_t));
    if (slots) memset(slots, 0xFF, cap * sizeof(slot_t));
    return slots;
}

/* 0, or -1 with MemoryError set */
static int tt_put(Core *s, uint64_t a, uint64_t b, int32_t v) {
    if ((s->used + 1) * 2 > s->cap) {
        size_t cap = s->cap * 2;
        slot_t *slots = new_slots(cap);
        if (!slots) {
            PyErr_NoMemory();
            return -1;
        }
        for (size_t j = 0; j < s->cap; j++) {
            slot_t *e = &s->slots[j];
            if (e->v < 0) continue;
            size_t i = slot_of(e->a, e->b, cap);
            while (slots[i].v >= 0) i = (i + 1) & (cap - 1);
            slots[i] = *e;
        }
        PyMem_Free(s->slots);
        s->slots = slots;
        s->cap = cap;
    }
    size_t mask = s->cap - 1;
    size_t i = slot_of(a, b, s->cap);
    for (;;) {
        slot_t *e = &s->slots[i];
        if (e->v < 0) {
            e->a = a;
            e->b = b;
            e->v = v;
            s->used++;
            return 0;
        }
        if (e->a == a && e->b == b) {
            e->v = v;
            return 0;
        }
        i = (i + 1) & mask;
    }
}

/* --- the search -------------------------------------------------------------------
 * Each returns 1 (the holder's side takes ``need`` more tricks), 0 (it cannot) or
 * -1: the node budget ran out (nothing set) or memory did (MemoryError set). */

#define STOP_BUDGET (-1)
#define STOP_ERROR (-2)

static int search(Core *s, mask_t *hands, int *trick, int n, int leader, int broken, int need);

/* The cheap tests of _probe, before its table lookup: 1, 0, or -1 (look it up). */
static int quick(const Core *s, const mask_t *hands, int leader, int need) {
    if (need <= 0) return 1;
    int left = popc(hands[leader]);
    if (need > left) return 0;
    mask_t tmask = s->tmask;
    const int *side = s->side;
    if (left == 1) {
        int cards[4];
        for (int k = 0; k < 4; k++) cards[k] = top_bit(hands[(leader + k) & 3]);
        return side[(leader + trick_best(cards, 4, tmask)) & 3] ? 1 : 0;
    }
    mask_t rest = hands[0] | hands[1] | hands[2] | hands[3];
    mask_t trumps = rest & tmask;
    mask_t own = hands[leader];
    int lead_run = 0;
    if (trumps) {
        int top = top_bit(trumps);
        int owner = 0;
        while (!(hands[owner] >> top & 1)) owner++;
        mask_t held = hands[owner];
        int run = 0;
        while (trumps && (held >> top_bit(trumps) & 1)) {
            run++;
            trumps ^= BIT(top_bit(trumps));
        }
        if (side[owner]) {
            if (need <= run) return 1;
        } else if (need > left - run) {
            return 0;
        }
        if (owner == leader) lead_run = run;
    }
    mask_t ruffers[4];
    int nr = 0;
    for (int i = 0; i < 4; i++) {
        mask_t h = hands[i];
        if (h != own && (h & tmask)) ruffers[nr++] = h;
    }
    int cash;
    if (nr == 0) {
        cash = popc(own & tmask);
        for (int su = 0; su < 4; su++) {
            if (SUIT[su] == tmask) continue;
            mask_t r = rest & SUIT[su];
            while (r && (own >> top_bit(r) & 1)) {
                cash++;
                r ^= BIT(top_bit(r));
            }
        }
    } else {
        int best = 0;
        for (int su = 0; su < 4; su++) {
            if (SUIT[su] == tmask || !(own & SUIT[su])) continue;
            int limit = 13;
            for (int j = 0; j < nr; j++) {
                int k = popc(ruffers[j] & SUIT[su]);
                if (k < limit) limit = k;
            }
            mask_t r = rest & SUIT[su];
            int c = 0;
            while (c < limit && r && (own >> top_bit(r) & 1)) {
                c++;
                r ^= BIT(top_bit(r));
            }
            best += c;
        }
        cash = best + lead_run;
    }
    if (cash) {
        if (side[leader]) {
            if (need <= cash) return 1;
        } else if (need > left - cash) {
            return 0;
        }
    }
    return -1;
}

/* What a table entry says of ``need``: 1, 0, or -1 (nothing). */
static inline int settled(int32_t e, int need) {
    if (e >= 0) {
        if (need <= (e & 15)) return 1;
        if (need > (e >> 4 & 15)) return 0;
    }
    return -1;
}

/* _probe: the cheap tests, then the table. Leaves the key, and the entry (-1: none)
 * when it gets that far. */
static int probe(Core *s, const mask_t *hands, int leader, int broken, int need, uint64_t *ka,
                 uint64_t *kb, int32_t *entry) {
    *entry = -1;
    int found = quick(s, hands, leader, need);
    if (found >= 0) return found;
    make_key(hands, leader, broken, ka, kb);
    *entry = tt_get(s, *ka, *kb);
    return settled(*entry, need);
}

static int expand(Core *s, mask_t *hands, int leader, int broken, int need, uint64_t ka,
                  uint64_t kb, int32_t entry) {
    if (s->limit >= 0 && s->limit <= s->nodes) return STOP_BUDGET;
    int lo, hi, first;
    if (entry >= 0) {
        lo = entry & 15;
        hi = entry >> 4 & 15;
        first = (entry >> 8) - 1;
    } else {
        lo = 0;
        hi = popc(hands[leader]);
        first = -1;
    }
    s->nodes++;
    mask_t tmask = s->tmask;
    mask_t rest = hands[0] | hands[1] | hands[2] | hands[3];
    mask_t hand = hands[leader];
    mask_t legal = legal_mask(hand, NULL, 0, tmask, broken, s->overtake);
    int cands[13];
    int k = distinct_cards(legal, rest, cands);
    if (k > 1) {
        int64_t order[13];
        int base = leader * 64;
        for (int i = 0; i < k; i++) {
            int c = cands[i];
            int64_t h = s->hist[base + place_of(c, rest)];
            if (h > HIST_TOP - 1) h = HIST_TOP - 1;
            order[i] = (HIST_TOP - h) << 12 | (int64_t)(lead_order(c, rest) + 16) << 6 | c;
        }
        sort64(order, k);
        for (int i = 0; i < k; i++) cands[i] = (int)(order[i] & 63);
        if (first >= 0) {
            int card = from_place(first, rest);
            if (card != cands[0]) {
                for (int j = 1; j < k; j++) {
                    if (cands[j] == card) {
                        memmove(cands + 1, cands, (size_t)j * sizeof(int));
                        cands[0] = card;
                        break;
                    }
                }
            }
        }
    }
    int maxi = s->side[leader];
    int result = !maxi;
    int best = cands[0];
    int trick[4];
    for (int i = 0; i < k; i++) {
        int card = cands[i];
        hands[leader] = hand ^ BIT(card);
        trick[0] = card;
        int nb = broken || breaks_trump(s->lead_rule, tmask, -1, card);
        int ok = search(s, hands, trick, 1, leader, nb, need);
        hands[leader] = hand;
        if (ok < 0) return ok;
        if (ok == maxi) {
            result = ok;
            best = card;
            s->hist[leader * 64 + place_of(card, rest)] += k;
            break;
        }
    }
    if (result) {
        if (need > lo) lo = need;
    } else if (need - 1 < hi) {
        hi = need - 1;
    }
    int place = result == maxi ? place_of(best, rest) : first;
    if (tt_put(s, ka, kb, lo | hi << 4 | (place + 1) << 8) < 0) return STOP_ERROR;
    return result;
}

static int boundary(Core *s, mask_t *hands, int leader, int broken, int need) {
    uint64_t ka, kb;
    int32_t entry;
    int found = probe(s, hands, leader, broken, need, &ka, &kb, &entry);
    if (found >= 0) return found;
    return expand(s, hands, leader, broken, need, ka, kb, entry);
}

static void order_follow(const Core *s, int *cands, int k, const int *trick, int n, int leader,
                         int seat) {
    mask_t tmask = s->tmask;
    int bi = trick_best(trick, n, tmask);
    int best = trick[bi];
    int64_t order[13];
    for (int i = 0; i < k; i++) order[i] = (int64_t)s->cheap[cands[i]] << 6 | cands[i];
    if (s->side[(leader + bi) & 3] != s->side[seat]) {
        mask_t beat = (tmask >> best & 1) ? ABOVE[best] : (ABOVE[best] | tmask);
        for (int i = 0; i < k; i++)
            if (!(beat >> (order[i] & 63) & 1)) order[i] |= 1 << 12;
    }
    sort64(order, k);
    for (int i = 0; i < k; i++) cands[i] = (int)(order[i] & 63);
}

static int last_card(Core *s, mask_t *hands, int *trick, int leader, int broken, int need,
                     const int *cands, int k, int maxi) {
    mask_t tmask = s->tmask;
    int seat = (leader + 3) & 3;
    mask_t hand = hands[seat];
    int rule = s->lead_rule;
    int led = trick[0];
    const int *side = s->side;
    if (k == 1) {
        int card = cands[0];
        int nb = broken || breaks_trump(rule, tmask, led, card);
        hands[seat] = hand ^ BIT(card);
        trick[3] = card;
        int winner = (leader + trick_best(trick, 4, tmask)) & 3;
        int ok = boundary(s, hands, winner, nb, side[winner] ? need - 1 : need);
        hands[seat] = hand;
        return ok;
    }
    /* _probe of every candidate, in two passes: first the cheap tests and the table
     * keys (fetching their slots meanwhile), then the lookups, so that the memory
     * waits of the candidates overlap. Nothing changes between the passes, so
     * which cards stay open is the same as probing them one by one. */
    int open_cards[13];
    uint64_t open_a[13], open_b[13];
    int open_need[13];
    int m = 0;
    for (int i = 0; i < k; i++) {
        int card = cands[i];
        hands[seat] = hand ^ BIT(card);
        trick[3] = card;
        int winner = (leader + trick_best(trick, 4, tmask)) & 3;
        int nd = side[winner] ? need - 1 : need;
        int found = quick(s, hands, winner, nd);
        if (found < 0) {
            int nb = broken || breaks_trump(rule, tmask, led, card);
            make_key(hands, winner, nb, &open_a[m], &open_b[m]);
            __builtin_prefetch(&s->slots[slot_of(open_a[m], open_b[m], s->cap)]);
            open_cards[m] = card;
            open_need[m] = nd;
            m++;
        }
        hands[seat] = hand;
        if (found >= 0 && (found == 1) == maxi) return maxi;
    }
    int still = 0;
    for (int i = 0; i < m; i++) {
        int found = settled(tt_get(s, open_a[i], open_b[i]), open_need[i]);
        if (found < 0) {
            open_cards[still] = open_cards[i];
            open_a[still] = open_a[i];
            open_b[still] = open_b[i];
            still++;
        } else if ((found == 1) == maxi) {
            return maxi;
        }
    }
    m = still;
    for (int i = 0; i < m; i++) {
        int card = open_cards[i];
        int nb = broken || breaks_trump(rule, tmask, led, card);
        hands[seat] = hand ^ BIT(card);
        trick[3] = card;
        int winner = (leader + trick_best(trick, 4, tmask)) & 3;
        int nd = side[winner] ? need - 1 : need;
        /* the search of an earlier card may have settled this one meanwhile */
        int32_t entry = tt_get(s, open_a[i], open_b[i]);
        int ok;
        if (entry >= 0 && (nd <= (entry & 15) || nd > (entry >> 4 & 15)))
            ok = nd <= (entry & 15);
        else
            ok = expand(s, hands, winner, nb, nd, open_a[i], open_b[i], entry);
        hands[seat] = hand;
        if (ok < 0) return ok;
        if (ok == maxi) return ok;
    }
    return !maxi;
}

static int search(Core *s, mask_t *hands, int *trick, int n, int leader, int broken, int need) {
    s->nodes++;
    if (n == 0) return boundary(s, hands, leader, broken, need);
    mask_t tmask = s->tmask;
    int seat = (leader + n) & 3;
    mask_t hand = hands[seat];
    mask_t legal = legal_mask(hand, trick, n, tmask, broken, s->overtake);
    int cands[13];
    int k;
    if ((legal & (legal - 1)) == 0) {
        cands[0] = top_bit(legal);
        k = 1;
    } else {
        mask_t rest = hands[0] | hands[1] | hands[2] | hands[3];
        for (int i = 0; i < n; i++) rest |= BIT(trick[i]);
        k = distinct_cards(legal, rest, cands);
        if (k > 1) order_follow(s, cands, k, trick, n, leader, seat);
    }
    int maxi = s->side[seat];
    if (n == 3) return last_card(s, hands, trick, leader, broken, need, cands, k, maxi);
    int led = trick[0];
    for (int i = 0; i < k; i++) {
        int card = cands[i];
        int nb = broken || breaks_trump(s->lead_rule, tmask, led, card);
        hands[seat] = hand ^ BIT(card);
        trick[n] = card;
        int ok = search(s, hands, trick, n + 1, leader, nb, need);
        hands[seat] = hand;
        if (ok < 0) return ok;
        if (ok == maxi) return ok;
    }
    return !maxi;
}

/* --- the Python type ----------------------------------------------------------- */

static int Core_init(Core *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"trump", "side", "overtake", "lead_rule", NULL};
    int trump, overtake, lead_rule;
    PyObject *side;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iOpi", names, &trump, &side, &overtake,
                                     &lead_rule))
        return -1;
    if (trump < 0 || trump > 3) {
        PyErr_SetString(PyExc_ValueError, "trump: expected a suit 0..3");
        return -1;
    }
    PyObject *seq = PySequence_Fast(side, "side: expected 4 booleans");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != 4) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "side: expected 4 booleans");
        return -1;
    }
    for (int i = 0; i < 4; i++) {
        int t = PyObject_IsTrue(PySequence_Fast_GET_ITEM(seq, i));
        if (t < 0) {
            Py_DECREF(seq);
            return -1;
        }
        self->side[i] = t;
    }
    Py_DECREF(seq);
    self->tmask = SUIT[trump];
    self->overtake = overtake;
    self->lead_rule = lead_rule;
    for (int c = 0; c < 52; c++) self->cheap[c] = (c / 13 == trump ? 13 : 0) + c % 13;
    memset(self->hist, 0, sizeof self->hist);
    PyMem_Free(self->slots);
    self->cap = 1 << 14;
    self->used = 0;
    self->slots = new_slots(self->cap);
    if (!self->slots) {
        PyErr_NoMemory();
        return -1;
    }
    self->nodes = 0;
    self->limit = -1;
    return 0;
}

static void Core_dealloc(Core *self) {
    PyMem_Free(self->slots);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Core_search(Core *self, PyObject *args) {
    unsigned long long h[4];
    PyObject *trick_in;
    int leader, broken, need;
    if (!PyArg_ParseTuple(args, "KKKKOipi", &h[0], &h[1], &h[2], &h[3], &trick_in, &leader,
                          &broken, &need))
        return NULL;
    if (!self->slots) {
        PyErr_SetString(PyExc_RuntimeError, "Core was not initialised");
        return NULL;
    }
    mask_t hands[4];
    mask_t seen = 0;
    for (int i = 0; i < 4; i++) {
        if (h[i] >> 52 || (seen & h[i])) {
            PyErr_SetString(PyExc_ValueError, "hands: four disjoint sets of cards");
            return NULL;
        }
        seen |= h[i];
        hands[i] = h[i];
    }
    if (leader < 0 || leader > 3) {
        PyErr_SetString(PyExc_ValueError, "leader: expected a seat 0..3");
        return NULL;
    }
    PyObject *seq = PySequence_Fast(trick_in, "trick: expected a sequence of cards");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int trick[4];
    if (n > 3) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "trick: at most 3 cards");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (c == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return NULL;
        }
        if (c < 0 || c > 51 || (seen >> c & 1)) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "trick: cards not in any hand");
            return NULL;
        }
        seen |= BIT(c);
        trick[i] = (int)c;
    }
    Py_DECREF(seq);
    /* as batak.solver_types.check_position: the seat to act and those after it hold
     * one card more than those who played to the trick, at most 13 */
    int waiting = popc(hands[(leader + (int)n) & 3]);
    for (int k = 0; k < 4; k++) {
        if (popc(hands[(leader + k) & 3]) != (k < n ? waiting - 1 : waiting) || waiting > 13 ||
            (waiting == 0 && n)) {
            PyErr_SetString(PyExc_ValueError, "hands: sizes that do not fit the trick");
            return NULL;
        }
    }
    int ok = search(self, hands, trick, (int)n, leader, broken, need);
    if (ok == STOP_ERROR) return NULL;
    return PyLong_FromLong(ok);
}

static PyObject *Core_get_size(Core *self, void *closure) {
    return PyLong_FromSize_t(self->used);
}

static PyMethodDef Core_methods[] = {
    {"search", (PyCFunction)Core_search, METH_VARARGS,
     "search(h0, h1, h2, h3, trick, leader, broken, need) -> 1, 0, or -1 when the node "
     "limit ran out: whether the holder's side can take `need` more tricks"},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef Core_members[] = {
    {"nodes", T_LONGLONG, offsetof(Core, nodes), 0, "nodes visited so far"},
    {"limit", T_LONGLONG, offsetof(Core, limit), 0,
     "stop once `nodes` reaches this (-1: no limit)"},
    {NULL, 0, 0, 0, NULL},
};

static PyGetSetDef Core_getset[] = {
    {"size", (getter)Core_get_size, NULL, "entries in the transposition table", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "batak._solver_core.Core",
    .tp_doc = "The search of batak.solver.Solver for one rules, trump and side.",
    .tp_basicsize = sizeof(Core),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_methods = Core_methods,
    .tp_members = Core_members,
    .tp_getset = Core_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    "batak._solver_core",
    "The double-dummy solver's search in C (see batak/solver.py, its definition).",
    -1,
    NULL,
};

static void build_tables(void) {
    for (int s = 0; s < 4; s++) SUIT[s] = (mask_t)0x1FFF << (13 * s);
    for (int c = 0; c < 52; c++) ABOVE[c] = SUIT[c / 13] & ~((BIT(c) << 1) - 1);
    for (int m = 0; m < 128; m++) POP7[m] = (uint8_t)popc((mask_t)m);
    /* PACKw[m << w | x]: the bits of x at the set places of m, packed together */
    for (int w = 6; w <= 7; w++) {
        uint16_t *table = w == 7 ? PACK7 : PACK6;
        for (unsigned m = 0; m < (1u << w); m++) {
            unsigned x = m;
            for (;;) {
                unsigned packed = 0;
                int j = 0;
                for (int i = 0; i < w; i++) {
                    if (m >> i & 1) {
                        packed |= (x >> i & 1) << j;
                        j++;
                    }
                }
                table[m << w | x] = (uint16_t)packed;
                if (x == 0) break;
                x = (x - 1) & m;
            }
        }
    }
}

PyMODINIT_FUNC PyInit__solver_core(void) {
    build_tables();
    if (PyType_Ready(&CoreType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
