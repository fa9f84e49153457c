# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False
"""The compiled move-generation core: ``engine.movegen``'s search, in C.

Built in place by the project's install step (``cythonize -i engine/_core.pyx``, see the
Makefile); when it is not built, ``engine.movegen`` runs its pure-Python generator, which
finds exactly the same plays. ``WORDGAME_MOVEGEN=pure|compiled`` forces either.

Everything that depends on the position runs here on C arrays: the board as letter
codes per line in both directions, the cross-checks (walking every graph of the
lexicon, minus the removed words), the anchors, and the Appel-Jacobson search itself
(the same left parts and extensions, in the same order, as ``movegen._search`` in full
mode). ``movegen`` hands over what depends only on the tile set and the layout (its
``_Tables``, converted once into a :class:`Tables`).

Plays stay compact: a found play is its score, direction and sorted tile keys
(``(row * size + col) * 64 + rank of (letter, blank)``: the generator's tie-break
order). They are counted, kept above a running k-th best score, sorted and cut to the
top k here; ``movegen`` builds Python objects only for the plays asked for.

Best mode (``k > 0``) enumerates every play like full mode but keeps only those that
reach the running k-th best score (a heap of the k best scores found so far), trimming
the kept records as they grow. In C a whole two-blank search takes a few milliseconds,
less than the pure generator's bounds cost to set up, so no score bounds and no graph
facts are needed here: the core holds nothing per graph, only per-call arrays.

No Python objects are touched while searching: the search runs without the GIL, so
other threads of the process (a web server's) keep running.
"""

from libc.stdint cimport int64_t, uint8_t, uint16_t, uint32_t
from libc.stdlib cimport free, malloc, qsort, realloc
from libc.string cimport memset

cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define WG_POPCOUNT(x) __builtin_popcount(x)
    #define WG_CTZ(x) __builtin_ctz(x)
    #else
    static int WG_POPCOUNT(unsigned int x) { int c = 0; while (x) { x &= x - 1; c++; } return c; }
    static int WG_CTZ(unsigned int x) { int c = 0; while (!(x & 1u)) { x >>= 1; c++; } return c; }
    #endif
    """
    int WG_POPCOUNT(unsigned int x) nogil
    int WG_CTZ(unsigned int x) nogil

cdef enum:
    MAXN = 31  # board size limit: line squares and sort keys must fit the arrays below
    MAXSQ = 1024  # MAXN lines of MAXN + 1 squares (one sentinel each)
    MAXT = 15  # tiles per play (the rack)
    MAXG = 8  # graphs per lexicon
    MAXW = 64  # letters per word walked for a check
    MODE_COUNT = 0
    MODE_SCORES = 1
    MODE_COLLECT = 2
    HEAP_LIMIT = 1 << 22  # a larger k keeps every play and cuts at the end

cdef int NEVER = -(1 << 30)

#: The interface version ``engine.movegen`` expects (``movegen._CORE_ABI``): a core built
#: from another version of this file is not used.
ABI = 1

ctypedef struct Record:
    int score
    uint8_t n
    uint8_t direction
    uint16_t keys[MAXT]

ctypedef struct Ctx:
    # tables
    int rack_size
    int bingo
    int vals[32]
    uint16_t rank[64]
    # the direction being searched
    int direction
    int *codes
    int *bvals
    uint32_t *xmask
    int *xc
    int *xw
    int *lm
    int *wm
    int *line_index
    int skip_single
    # rack
    int counts[32]
    uint32_t bmask
    int ntiles
    # graphs
    const unsigned int *nodes
    int gi
    const unsigned int *gnodes[MAXG]
    unsigned int groots[MAXG]
    const unsigned int *rnodes
    unsigned int rroot
    int check
    # task
    int base
    int anchor
    int start
    int tmax
    int lo
    int hi
    int tiles[MAXT + 1]
    int lp[MAXT + 1]
    # output
    int mode
    int64_t count
    int64_t better
    int best
    int better_than
    int threshold
    int k
    int ties
    int *heap
    int heap_len
    int *scores
    int64_t nscores
    int64_t cap_scores
    Record *out
    int64_t nout
    int64_t cap_out
    int64_t trim_at
    int oom


cdef class Tables:
    """What ``movegen._Tables`` knows (tile values, premiums per direction, sort ranks),
    as C arrays; built once per ``_Tables``."""

    cdef int size
    cdef int stride
    cdef int rack_size
    cdef int bingo
    cdef int center_r
    cdef int center_c
    cdef int vals[32]
    cdef uint32_t tile_mask
    cdef uint32_t blank_mask
    cdef int lm[2][MAXSQ]
    cdef int wm[2][MAXSQ]
    cdef int line_index[2][MAXSQ]
    cdef uint16_t rank[64]
    cdef dict char_code
    cdef dict char_points
    cdef dict codes

    def __init__(self, t: object) -> None:
        cdef int d, i
        size = t.size
        if size > MAXN or size < 1:
            raise ValueError(f"the compiled core handles boards of 1 to {MAXN} squares a side")
        self.size = size
        self.stride = t.stride
        self.rack_size = t.rack_size
        self.bingo = t.bingo
        self.center_r, self.center_c = t.center
        memset(self.vals, 0, sizeof(self.vals))
        for i, v in enumerate(t.values):
            self.vals[i] = v
        self.tile_mask = t.tile_mask
        self.blank_mask = t.blank_mask
        for d, name in enumerate(("across", "down")):
            for i, v in enumerate(t.lm[name]):
                self.lm[d][i] = v
            for i, v in enumerate(t.wm[name]):
                self.wm[d][i] = v
            for i, v in enumerate(t.line_index[name]):
                self.line_index[d][i] = v
        for i, v in enumerate(t.rank):
            self.rank[i] = v
        self.char_code = dict(t.char_code)
        self.char_points = dict(t.char_points)
        self.codes = dict(t.codes)


cdef class Plays:
    """Found plays, compact, in the generator's order (best score first, then the sorted
    tile keys). ``keys(i)`` are ``(row * size + col) * 64 + rank`` per tile, ascending."""

    cdef Record *recs
    cdef Py_ssize_t n

    def __dealloc__(self) -> None:
        free(self.recs)

    def __len__(self) -> int:
        return self.n

    def score(self, Py_ssize_t i) -> int:
        if i < 0 or i >= self.n:
            raise IndexError(i)
        return self.recs[i].score

    def keys(self, Py_ssize_t i) -> tuple:
        if i < 0 or i >= self.n:
            raise IndexError(i)
        cdef Record *r = &self.recs[i]
        return tuple([r.keys[t] for t in range(r.n)])

    def direction(self, Py_ssize_t i) -> int:
        if i < 0 or i >= self.n:
            raise IndexError(i)
        return self.recs[i].direction

    def scores(self) -> list:
        return [self.recs[i].score for i in range(self.n)]


# -- graph walks -------------------------------------------------------------------------

cdef inline unsigned int child_at(const unsigned int *nodes, unsigned int n, unsigned int w,
                                  unsigned int low) noexcept nogil:
    return nodes[n + 1 + WG_POPCOUNT(w & (low - 2))]


cdef int contains(const unsigned int *nodes, unsigned int root, const int *word, int length) noexcept nogil:
    """Whether the word of letter codes ``word[:length]`` is in the graph."""
    cdef unsigned int n = root, w, bit
    cdef int i
    for i in range(length):
        w = nodes[n]
        bit = 1u << word[i]
        if not (w & bit):
            return 0
        n = nodes[n + 1 + WG_POPCOUNT(w & (bit - 2))]
    return nodes[n] & 1


cdef int accept(Ctx *c, int j, int nt) noexcept nogil:
    """The main word (start..j-1) is not removed and not found in an earlier graph."""
    cdef int word[MAXW]
    cdef int length = j - c.start, q, t, sq, g
    if length > MAXW:
        return 1
    for q in range(length):
        word[q] = c.codes[c.base + c.start + q]
    for t in range(nt):
        sq = c.tiles[t] >> 6
        word[sq - c.base - c.start] = (c.tiles[t] >> 1) & 31
    if c.rnodes != NULL and contains(c.rnodes, c.rroot, word, length):
        return 0
    for g in range(c.gi):
        if contains(c.gnodes[g], c.groots[g], word, length):
            return 0
    return 1


# -- found plays ----------------------------------------------------------------------------

cdef int cmp_records(const void *a, const void *b) noexcept nogil:
    cdef const Record *ra = <const Record *> a
    cdef const Record *rb = <const Record *> b
    cdef int i, m
    if ra.score != rb.score:
        return -1 if ra.score > rb.score else 1
    m = ra.n if ra.n < rb.n else rb.n
    for i in range(m):
        if ra.keys[i] != rb.keys[i]:
            return -1 if ra.keys[i] < rb.keys[i] else 1
    if ra.n != rb.n:
        return -1 if ra.n < rb.n else 1
    return 0


cdef int64_t cut(Record *recs, int64_t n, int k, int ties) noexcept nogil:
    """Sort ``recs`` and return how many to keep: the k best, and with ``ties`` every
    further play scoring the same as the k-th."""
    qsort(recs, n, sizeof(Record), cmp_records)
    if k <= 0 or n <= k:
        return n
    cdef int64_t keep = k
    if ties:
        while keep < n and recs[keep].score == recs[k - 1].score:
            keep += 1
    return keep


cdef inline void heap_push(Ctx *c, int score) noexcept nogil:
    cdef int *h = c.heap
    cdef int i = c.heap_len, p
    c.heap_len += 1
    while i > 0:
        p = (i - 1) >> 1
        if h[p] <= score:
            break
        h[i] = h[p]
        i = p
    h[i] = score


cdef inline void heap_replace(Ctx *c, int score) noexcept nogil:
    cdef int *h = c.heap
    cdef int n = c.heap_len, i = 0, l, m
    while True:
        l = 2 * i + 1
        if l >= n:
            break
        m = l
        if l + 1 < n and h[l + 1] < h[l]:
            m = l + 1
        if h[m] >= score:
            break
        h[i] = h[m]
        i = m
    h[i] = score


cdef void emit(Ctx *c, int score, int nt) noexcept nogil:
    cdef Record *r
    cdef int t, i, key
    cdef int64_t cap
    if c.mode == MODE_COUNT:
        c.count += 1
        if score > c.best:
            c.best = score
        if score > c.better_than:
            c.better += 1
        return
    if c.mode == MODE_SCORES:
        if c.nscores == c.cap_scores:
            cap = c.cap_scores * 2 if c.cap_scores else 1024
            ptr = <int *> realloc(c.scores, cap * sizeof(int))
            if ptr == NULL:
                c.oom = 1
                return
            c.scores = ptr
            c.cap_scores = cap
        c.scores[c.nscores] = score
        c.nscores += 1
        return
    if score < c.threshold:
        return
    if c.nout == c.cap_out:
        cap = c.cap_out * 2 if c.cap_out else 256
        rptr = <Record *> realloc(c.out, cap * sizeof(Record))
        if rptr == NULL:
            c.oom = 1
            return
        c.out = rptr
        c.cap_out = cap
    r = &c.out[c.nout]
    c.nout += 1
    r.score = score
    r.n = nt
    r.direction = c.direction
    # Insertion sort of at most MAXT keys.
    for t in range(nt):
        key = c.line_index[c.tiles[t] >> 6] * 64 + c.rank[c.tiles[t] & 63]
        i = t
        while i > 0 and r.keys[i - 1] > key:
            r.keys[i] = r.keys[i - 1]
            i -= 1
        r.keys[i] = key
    if c.heap != NULL:
        if c.heap_len < c.k:
            heap_push(c, score)
            if c.heap_len == c.k:
                c.threshold = c.heap[0]
        elif score > c.heap[0]:
            heap_replace(c, score)
            c.threshold = c.heap[0]
        if c.nout >= c.trim_at:
            c.nout = cut(c.out, c.nout, c.k, c.ties)
            # Many plays may tie with the k-th: trim again only once the kept ones doubled.
            if 2 * c.nout > c.trim_at:
                c.trim_at = 2 * c.nout


# -- the search (see movegen._search) ----------------------------------------------------

cdef void extend(Ctx *c, unsigned int n, int j, int msum, int mult, int xtot, int nt,
                 uint32_t avail, int blanks) noexcept nogil:
    # n: graph node after the letters start..j-1; j: next position in the line.
    cdef const unsigned int *nodes = c.nodes
    cdef unsigned int w = nodes[n], bit, low, child, cand, after_bit
    cdef int sq = c.base + j
    cdef int code = c.codes[sq]
    cdef int score, lmq, wmq, xcq, xwq, mult2, enc, after, k, v, left
    while code:  # follow the tiles already on the board
        bit = 1u << code
        if not (w & bit):
            return
        n = nodes[n + 1 + WG_POPCOUNT(w & (bit - 2))]
        w = nodes[n]
        msum += c.bvals[sq]
        sq += 1
        j += 1
        code = c.codes[sq]
    if (
        (w & 1)
        and j > c.anchor
        and j - c.start > 1
        and (nt > 1 or not c.skip_single or not c.xw[c.tiles[0] >> 6])
        and (not c.check or accept(c, j, nt))
    ):
        score = msum * mult + xtot
        if nt == c.rack_size:
            score += c.bingo
        emit(c, score, nt)
    if nt >= c.tmax:
        return
    cand = w & c.xmask[sq] & (avail | (c.bmask if blanks else 0))
    if not cand:
        return
    lmq = c.lm[sq]
    wmq = c.wm[sq]
    xcq = c.xc[sq]
    xwq = c.xw[sq]
    mult2 = mult * wmq
    j += 1
    nt += 1
    enc = sq << 6
    # A board tile right after this square must continue the word.
    after = c.codes[sq + 1]
    after_bit = (1u << after) if after else 0
    while cand:
        low = cand & (~cand + 1)
        cand ^= low
        child = nodes[n + 1 + WG_POPCOUNT(w & (low - 2))]
        if after_bit and not (nodes[child] & after_bit):
            continue
        k = WG_CTZ(low)
        if avail & low:
            v = c.vals[k] * lmq
            left = c.counts[k] - 1
            c.counts[k] = left
            c.tiles[nt - 1] = enc | (k << 1)
            extend(c, child, j, msum + v, mult2, xtot + xcq + v * xwq, nt,
                   avail if left else avail ^ low, blanks)
            c.counts[k] = left + 1
        if blanks and (c.bmask & low):
            c.tiles[nt - 1] = enc | (k << 1) | 1
            extend(c, child, j, msum, mult2, xtot + xcq, nt, avail, blanks - 1)


cdef void left_part(Ctx *c, unsigned int n, int size, uint32_t avail, int blanks) noexcept nogil:
    # lp holds ``size`` rack tiles (code << 1 | blank) that end just before the anchor.
    cdef const unsigned int *nodes = c.nodes
    cdef unsigned int w = nodes[n], cand, low, child
    cdef uint32_t playable = avail | (c.bmask if blanks else 0)
    cdef int start, msum, mult, idx, e, sq, k, remaining
    if size >= c.lo and (w & c.xmask[c.base + c.anchor] & playable):
        start = c.anchor - size
        msum = 0
        mult = 1
        for idx in range(size):
            e = c.lp[idx]
            sq = c.base + start + idx
            if not (e & 1):
                msum += c.vals[e >> 1] * c.lm[sq]
            mult *= c.wm[sq]
            c.tiles[idx] = (sq << 6) | e
        c.start = start
        extend(c, n, c.anchor, msum, mult, 0, size, avail, blanks)
    if size >= c.hi:
        return
    cand = w & playable
    while cand:
        low = cand & (~cand + 1)
        cand ^= low
        child = nodes[n + 1 + WG_POPCOUNT(w & (low - 2))]
        k = WG_CTZ(low)
        if avail & low:
            remaining = c.counts[k] - 1
            c.counts[k] = remaining
            c.lp[size] = k << 1
            left_part(c, child, size + 1, avail if remaining else avail ^ low, blanks)
            c.counts[k] = remaining + 1
        if blanks and (c.bmask & low):
            c.lp[size] = (k << 1) | 1
            left_part(c, child, size + 1, avail, blanks - 1)


# -- one position ---------------------------------------------------------------------------

ctypedef struct Lines:
    int codes[MAXSQ + 1]
    int bvals[MAXSQ + 1]
    uint32_t xmask[MAXSQ + 1]
    int xc[MAXSQ + 1]
    int xw[MAXSQ + 1]
    int anchors[MAXSQ]  # line squares
    int nanchors


cdef uint32_t cross_mask(Ctx *c, int ngraphs, const int *prefix, int np, const int *suffix,
                         int ns) noexcept nogil:
    """Letters ``k`` such that prefix + k + suffix is a word of the lexicon."""
    cdef uint32_t mask = 0, w0, cand, low
    cdef unsigned int n, m, w, bit
    cdef const unsigned int *nodes
    cdef int g, i, ok
    cdef int word[MAXW]
    for g in range(ngraphs):
        nodes = c.gnodes[g]
        n = c.groots[g]
        ok = 1
        for i in range(np):
            w = nodes[n]
            bit = 1u << prefix[i]
            if not (w & bit):
                ok = 0
                break
            n = nodes[n + 1 + WG_POPCOUNT(w & (bit - 2))]
        if not ok:
            continue
        w0 = nodes[n]
        cand = w0 & ~1u & ~mask
        while cand:
            low = cand & (~cand + 1)
            cand ^= low
            m = nodes[n + 1 + WG_POPCOUNT(w0 & (low - 2))]
            ok = 1
            for i in range(ns):
                w = nodes[m]
                bit = 1u << suffix[i]
                if not (w & bit):
                    ok = 0
                    break
                m = nodes[m + 1 + WG_POPCOUNT(w & (bit - 2))]
            if ok and (nodes[m] & 1):
                mask |= low
    if c.rnodes != NULL and mask and np + ns + 1 <= MAXW:
        for i in range(np):
            word[i] = prefix[i]
        for i in range(ns):
            word[np + 1 + i] = suffix[i]
        cand = mask
        while cand:
            low = cand & (~cand + 1)
            cand ^= low
            word[np] = WG_CTZ(low)
            if contains(c.rnodes, c.rroot, word, np + ns + 1):
                mask ^= low
    return mask


cdef void prepare_lines(Ctx *c, Tables tb, int d, const int *grid, const int *points, int first_move,
                        int ngraphs, Lines *out) noexcept nogil:
    cdef int n = tb.size, s = tb.stride, sq, k, top, q, np, ns, last, i, j
    cdef int prefix[MAXN]
    cdef int suffix[MAXN]
    cdef uint32_t full = tb.tile_mask | tb.blank_mask
    cdef int *index = tb.line_index[d]
    cdef int *wm = tb.wm[d]
    cdef int *codes = out.codes
    for sq in range(n * s):
        k = index[sq]
        codes[sq] = grid[k] if k >= 0 else 0
        out.bvals[sq] = points[k] if k >= 0 else 0
        out.xmask[sq] = 0 if codes[sq] else full
        out.xc[sq] = 0
        out.xw[sq] = 0
    codes[n * s] = 0  # past the last sentinel
    out.xmask[n * s] = 0
    sq = n
    while sq < n * s:
        out.xmask[sq] = 0  # nothing is ever played past the end of a line
        sq += s
    out.nanchors = 0
    last = (n - 1) * s
    for sq in range(n * s):
        if codes[sq] or sq % s == n:
            continue
        if (sq >= s and codes[sq - s]) or (sq < last and codes[sq + s]):
            out.anchors[out.nanchors] = sq
            out.nanchors += 1
            k = sq - s
            while k >= 0 and codes[k]:
                k -= s
            top = k + s
            k = sq + s
            while k < n * s and codes[k]:
                k += s
            np = 0
            q = top
            while q < sq:
                prefix[np] = codes[q]
                out.xc[sq] += out.bvals[q]
                np += 1
                q += s
            ns = 0
            q = sq + s
            while q < k:
                suffix[ns] = codes[q]
                out.xc[sq] += out.bvals[q]
                ns += 1
                q += s
            out.xmask[sq] = cross_mask(c, ngraphs, prefix, np, suffix, ns) & full
            out.xw[sq] = wm[sq]
            out.xc[sq] *= wm[sq]
        elif (sq > 0 and codes[sq - 1]) or codes[sq + 1]:
            out.anchors[out.nanchors] = sq
            out.nanchors += 1
    if first_move:
        i, j = tb.center_r, tb.center_c
        out.nanchors = 1
        out.anchors[0] = (i * s + j) if d == 0 else (j * s + i)


cdef void search_lines(Ctx *c, Tables tb, Lines *lines, int ngraphs, uint32_t avail0,
                       int blanks0) noexcept nogil:
    cdef int s = tb.stride, t, sq, a, i, limit, jj, q, msum, g
    cdef unsigned int n, w, bit
    cdef char is_anchor[MAXSQ + 1]
    memset(is_anchor, 0, sizeof(is_anchor))
    for t in range(lines.nanchors):
        is_anchor[lines.anchors[t]] = 1
    c.codes = lines.codes
    c.bvals = lines.bvals
    c.xmask = lines.xmask
    c.xc = lines.xc
    c.xw = lines.xw
    for g in range(ngraphs):
        c.gi = g
        c.nodes = c.gnodes[g]
        c.check = c.rnodes != NULL or g > 0
        for t in range(lines.nanchors):
            if c.oom:
                return
            sq = lines.anchors[t]
            i = sq // s
            a = sq % s
            c.base = i * s
            c.anchor = a
            c.tmax = c.ntiles
            if a > 0 and lines.codes[sq - 1]:
                # The left part is the run of board tiles ending just before the anchor.
                jj = a - 1
                while jj >= 0 and lines.codes[c.base + jj]:
                    jj -= 1
                c.start = jj + 1
                n = c.groots[g]
                msum = 0
                for q in range(c.base + c.start, c.base + a):
                    w = c.nodes[n]
                    bit = 1u << lines.codes[q]
                    if not (w & bit):
                        break
                    n = c.nodes[n + 1 + WG_POPCOUNT(w & (bit - 2))]
                    msum += lines.bvals[q]
                else:
                    extend(c, n, a, msum, 1, 0, 0, avail0, blanks0)
                continue
            limit = 0
            jj = a - 1
            while jj >= 0 and not lines.codes[c.base + jj] and not is_anchor[c.base + jj]:
                limit += 1
                jj -= 1
            c.lo = 0
            c.hi = limit if limit < c.ntiles - 1 else c.ntiles - 1
            left_part(c, c.groots[g], 0, avail0, blanks0)


def run(
    Tables tb,
    object board,
    str rack,
    str language,
    list graphs,
    object removed,
    int mode,
    int k=0,
    bint ties=False,
    int better_than=0,
):
    """Search one position. ``graphs``: ``(nodes, root)`` per graph of the lexicon (the
    node array as a buffer of uint32); ``removed``: ``(nodes, root)``
    of the graph of removed words, or None. ``mode`` 0: ``(count, best score or None,
    plays scoring more than better_than)``; 1: every score (a list); 2: :class:`Plays`,
    the ``k`` best (every play when ``k`` is 0; with ``ties`` also every further play
    scoring the same as the k-th). Raises ``ValueError`` for a rack tile or board
    letter the language does not have, or a board of the wrong size."""
    cdef Ctx *c
    cdef int n = tb.size, s = tb.stride, ngraphs = len(graphs), d, i, code, blanks = 0
    cdef uint32_t avail = 0
    cdef int grid[MAXSQ]
    cdef int points[MAXSQ]
    cdef int first_move = 1
    cdef const unsigned int[::1] view
    cdef list keep = []  # the buffers stay acquired while the search reads them
    cdef Lines *lines
    cdef Plays plays
    if ngraphs < 1 or ngraphs > MAXG:
        raise ValueError(f"the compiled core handles 1 to {MAXG} graphs per lexicon")
    if len(board) != n or any(len(row) != n for row in board):
        raise ValueError(f"the board must be {n} strings of {n} characters")
    if len(rack) > MAXT:
        raise ValueError(f"a rack of more than {MAXT} tiles")
    char_code = tb.char_code
    char_points = tb.char_points
    i = 0
    for row in board:
        for ch in row:
            try:
                grid[i] = char_code[ch]
            except KeyError:
                raise ValueError(f"board: {ch!r} is not a letter of the lexicon") from None
            points[i] = char_points[ch]
            if grid[i]:
                first_move = 0
            i += 1
    c = <Ctx *> malloc(sizeof(Ctx))
    lines = <Lines *> malloc(sizeof(Lines))
    if c == NULL or lines == NULL:
        free(c)
        free(lines)
        raise MemoryError()
    memset(c, 0, sizeof(Ctx))
    try:
        for tile in rack:
            if tile == "?":
                blanks += 1
                continue
            code = tb.codes.get(tile, 0)
            if not code or not (tb.tile_mask >> code) & 1:
                raise ValueError(f"{tile!r} is not a tile of {language}")
            c.counts[code] += 1
            avail |= 1u << code
        c.ntiles = len(rack)
        c.bmask = tb.blank_mask if blanks else 0
        c.rack_size = tb.rack_size
        c.bingo = tb.bingo
        for i in range(32):
            c.vals[i] = tb.vals[i]
        for i in range(64):
            c.rank[i] = tb.rank[i]
        for i in range(ngraphs):
            nodes, root = graphs[i][0], graphs[i][1]
            view = nodes
            keep.append(view)
            c.gnodes[i] = &view[0]
            c.groots[i] = root
        if removed is not None:
            view = removed[0]
            keep.append(view)
            c.rnodes = &view[0]
            c.rroot = removed[1]
        c.mode = mode
        c.best = NEVER
        c.better_than = better_than
        c.threshold = NEVER
        c.k = k
        c.ties = ties
        if mode == MODE_COLLECT and 0 < k <= HEAP_LIMIT:
            c.heap = <int *> malloc(k * sizeof(int))
            if c.heap == NULL:
                raise MemoryError()
            c.trim_at = 4 * <int64_t> k + 1024
        with nogil:
            for d in range(2):
                prepare_lines(c, tb, d, grid, points, first_move, ngraphs, lines)
                c.direction = d
                c.skip_single = d == 1
                c.lm = tb.lm[d]
                c.wm = tb.wm[d]
                c.line_index = tb.line_index[d]
                search_lines(c, tb, lines, ngraphs, avail, blanks)
            if mode == MODE_COLLECT and not c.oom:
                c.nout = cut(c.out, c.nout, k, ties)
        if c.oom:
            raise MemoryError()
        if mode == MODE_COUNT:
            return c.count, (c.best if c.count else None), c.better
        if mode == MODE_SCORES:
            return [c.scores[i] for i in range(c.nscores)]
        plays = Plays.__new__(Plays)
        plays.recs = c.out
        plays.n = c.nout
        c.out = NULL
        return plays
    finally:
        free(c.heap)
        free(c.scores)
        free(c.out)
        free(c)
        free(lines)
