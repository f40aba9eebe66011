#include "key/analysis.h"

#include <string.h>

ucr_graph *ucr_graph_new(int nvertices)
{
    ucr_graph *g = g_new0(ucr_graph, 1);
    g->nvertices = nvertices;
    g->nareas = nvertices;
    g->entry = -1;
    g->edges = g_array_new(FALSE, FALSE, sizeof(int));
    g->lengths = g_array_new(FALSE, FALSE, sizeof(int));
    g->leaves_elsewhere = g_new0(gboolean, nvertices > 0 ? nvertices : 1);
    return g;
}

void ucr_graph_add_edge_length(ucr_graph *g, int u, int v, int length)
{
    g_array_append_val(g->edges, u);
    g_array_append_val(g->edges, v);
    g_array_append_val(g->lengths, length);
}

void ucr_graph_add_edge(ucr_graph *g, int u, int v)
{
    ucr_graph_add_edge_length(g, u, v, 1);
}

void ucr_graph_free(ucr_graph *g)
{
    if (!g)
        return;
    g_array_free(g->edges, TRUE);
    g_array_free(g->lengths, TRUE);
    g_free(g->leaves_elsewhere);
    g_free(g);
}

typedef struct {
    const ucr_graph *g;
    const int *ev;          /* edge endpoints: ev[2e], ev[2e+1] */
    int *adj_start, *adj;   /* CSR adjacency: neighbour vertex and edge id */
    int *adj_edge;
    int *disc, *low;
    int timer;
    int *is_cut;
    int bridges;
    char *is_bridge;        /* per edge */
    int *edge_stack, es_top;
    int *mark, stamp;       /* per vertex: last component that counted it */
    int largest_loop;       /* areas in the largest cycle-bearing biconnected component */
} dfs_state;

/* Pops the edges of one biconnected component, down to tree edge @until, and
 * keeps the area count of the largest one that holds a loop (two edges or
 * more; a lone edge is a bridge). */
static void component_pop(dfs_state *s, int until)
{
    int edges = 0, areas = 0;
    s->stamp++;
    for (;;) {
        int e = s->edge_stack[--s->es_top];
        edges++;
        for (int k = 0; k < 2; k++) {
            int x = s->ev[2 * e + k];
            if (s->mark[x] != s->stamp) {
                s->mark[x] = s->stamp;
                areas += x < s->g->nareas;
            }
        }
        if (e == until)
            break;
    }
    if (edges >= 2 && areas > s->largest_loop)
        s->largest_loop = areas;
}

/* Tarjan's low-link DFS, iterative so that large graphs cannot overflow the
 * stack, with Hopcroft-Tarjan's edge stack for the biconnected components.
 * Parallel edges are told apart by edge id, so a doubled passage is a loop,
 * not a bridge.  Self-loops are left to the caller. */
static void dfs(dfs_state *s, int root)
{
    int n = s->g->nvertices;
    int *stack_v = g_new(int, n + 1), *stack_pe = g_new(int, n + 1), *stack_it = g_new(int, n + 1);
    int top = 0, root_children = 0;
    stack_v[0] = root;
    stack_pe[0] = -1;
    stack_it[0] = s->adj_start[root];
    s->disc[root] = s->low[root] = ++s->timer;
    while (top >= 0) {
        int v = stack_v[top];
        if (stack_it[top] < s->adj_start[v + 1]) {
            int k = stack_it[top]++;
            int w = s->adj[k], e = s->adj_edge[k];
            if (e == stack_pe[top] || w == v)
                continue;
            if (s->disc[w]) {
                /* A back edge to an ancestor; seen from the descendant's
                 * side it is already on the stack. */
                if (s->disc[w] < s->disc[v]) {
                    s->edge_stack[s->es_top++] = e;
                    if (s->disc[w] < s->low[v])
                        s->low[v] = s->disc[w];
                }
                continue;
            }
            s->edge_stack[s->es_top++] = e;
            s->disc[w] = s->low[w] = ++s->timer;
            if (v == root)
                root_children++;
            top++;
            stack_v[top] = w;
            stack_pe[top] = e;
            stack_it[top] = s->adj_start[w];
        } else {
            int pe = stack_pe[top];
            top--;
            if (top < 0)
                break;
            int parent = stack_v[top];
            if (s->low[v] < s->low[parent])
                s->low[parent] = s->low[v];
            if (s->low[v] > s->disc[parent]) {
                s->bridges++;
                s->is_bridge[pe] = 1;
            }
            if (s->low[v] >= s->disc[parent]) {
                component_pop(s, pe);
                if (parent != root)
                    s->is_cut[parent] = 1;
            }
        }
    }
    if (root_children > 1)
        s->is_cut[root] = 1;
    g_free(stack_v);
    g_free(stack_pe);
    g_free(stack_it);
}

/* Shortest walk from g->entry to every vertex (Dijkstra, O(V²): the graphs
 * have tens of vertices); the farthest area reached goes into @stats. */
static void farthest(const ucr_graph *g, const dfs_state *s, ucr_stats *stats)
{
    int n = g->nvertices;
    stats->farthest = 0;
    stats->farthest_area = -1;
    if (g->entry < 0 || g->entry >= n)
        return;
    int *dist = g_new(int, n + 1);
    char *done = g_new0(char, n + 1);
    for (int v = 0; v < n; v++)
        dist[v] = G_MAXINT;
    dist[g->entry] = 0;
    const int *len = (const int *)g->lengths->data;
    for (;;) {
        int v = -1;
        for (int x = 0; x < n; x++)
            if (!done[x] && dist[x] != G_MAXINT && (v < 0 || dist[x] < dist[v]))
                v = x;
        if (v < 0)
            break;
        done[v] = 1;
        if (v < g->nareas && (stats->farthest_area < 0 || dist[v] > stats->farthest)) {
            stats->farthest = dist[v];
            stats->farthest_area = v;
        }
        for (int k = s->adj_start[v]; k < s->adj_start[v + 1]; k++) {
            int w = s->adj[k], d = dist[v] + len[s->adj_edge[k]];
            if (d < dist[w])
                dist[w] = d;
        }
    }
    g_free(dist);
    g_free(done);
}

/* @s's adjacency lists (each edge under both its ends, a self-loop once)
 * from @g's @m edges over @n vertices; returns each vertex's degree counted
 * so (the caller frees it). */
static int *adjacency_build(dfs_state *s, int n, int m)
{
    const int *ev = s->ev;
    s->adj_start = g_new0(int, n + 1);
    s->adj = g_new(int, 2 * m + 1);
    s->adj_edge = g_new(int, 2 * m + 1);
    int *degree = g_new0(int, n + 1);
    for (int e = 0; e < m; e++) {
        degree[ev[2 * e]]++;
        if (ev[2 * e + 1] != ev[2 * e])
            degree[ev[2 * e + 1]]++;
    }
    for (int v = 0; v < n; v++)
        s->adj_start[v + 1] = s->adj_start[v] + degree[v];
    int *fill = g_new0(int, n + 1);
    for (int e = 0; e < m; e++) {
        int u = ev[2 * e], v = ev[2 * e + 1];
        s->adj[s->adj_start[u] + fill[u]] = v;
        s->adj_edge[s->adj_start[u] + fill[u]++] = e;
        if (u != v) {
            s->adj[s->adj_start[v] + fill[v]] = u;
            s->adj_edge[s->adj_start[v] + fill[v]++] = e;
        }
    }
    g_free(fill);
    return degree;
}

void ucr_graph_analyse(const ucr_graph *g, ucr_stats *stats)
{
    int n = g->nvertices, m = (int)g->edges->len / 2;
    const int *ev = (const int *)g->edges->data;
    dfs_state s = { 0 };
    s.g = g;
    s.ev = ev;
    int *degree = adjacency_build(&s, n, m);
    s.disc = g_new0(int, n + 1);
    s.low = g_new0(int, n + 1);
    s.is_cut = g_new0(int, n + 1);
    s.is_bridge = g_new0(char, m + 1);
    s.edge_stack = g_new(int, m + 1);
    s.mark = g_new0(int, n + 1);
    int components = 0;
    for (int v = 0; v < n; v++)
        if (!s.disc[v]) {
            components++;
            dfs(&s, v);
        }
    stats->vertices = n;
    stats->edges = m;
    stats->components = components;
    stats->loops = m - n + components;
    stats->bridges = s.bridges;
    stats->chokepoints = 0;
    stats->dead_ends = 0;
    /* On a loop: an area with a passage that is no bridge (that passage lies
     * on a cycle through it), or a passage that leaves and re-enters it. */
    char *looped = g_new0(char, n + 1);
    for (int e = 0; e < m; e++)
        if (!s.is_bridge[e]) {
            looped[ev[2 * e]] = 1;
            looped[ev[2 * e + 1]] = 1;
            if (ev[2 * e] == ev[2 * e + 1] && ev[2 * e] < g->nareas && s.largest_loop < 1)
                s.largest_loop = 1;
        }
    stats->on_loop = 0;
    for (int v = 0; v < g->nareas && v < n; v++)
        stats->on_loop += looped[v];
    stats->loop_share = g->nareas > 0 ? (double)stats->on_loop / g->nareas : 0.0;
    stats->largest_loop = s.largest_loop;
    for (int v = 0; v < n; v++) {
        stats->chokepoints += s.is_cut[v];
        /* A self-loop counts twice towards degree in graph theory, but a
         * corridor that leaves and re-enters the same room is still a way
         * out, so degree[] (counted once) is the right test here. */
        if (degree[v] == 1 && !g->leaves_elsewhere[v])
            stats->dead_ends++;
    }
    farthest(g, &s, stats);
    g_free(looped);
    g_free(degree);
    g_free(s.adj_start);
    g_free(s.adj);
    g_free(s.adj_edge);
    g_free(s.disc);
    g_free(s.low);
    g_free(s.is_cut);
    g_free(s.is_bridge);
    g_free(s.edge_stack);
    g_free(s.mark);
}

/* Union-find, for the corridor networks and for reachability. */
static int uf_find(int *parent, int x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

static void uf_union(int *parent, int a, int b)
{
    a = uf_find(parent, a);
    b = uf_find(parent, b);
    if (a != b)
        parent[a] = b;
}

int ucr_node_room_loops(const ucr_node *node, int *rooms)
{
    int nv = (int)node->vertices->len, na = (int)node->areas->len, np = (int)node->passages->len;
    /* Vertices [0, nv) of the node, then one per passage for the networks
     * of a single passage from room to room. */
    int *parent = g_new(int, nv + np + 1);
    char *is_room = g_new0(char, nv + 1);
    int nrooms = 0;
    for (int i = 0; i < nv + np; i++)
        parent[i] = i;
    for (int a = 0; a < na && a < nv; a++)
        if (g_array_index(node->areas, ucr_area, a).kind == UCR_AREA_ROOM) {
            is_room[a] = 1;
            nrooms++;
        }
    /* The networks: corridor ends that are not rooms glue the passages
     * meeting there into one network. */
    for (int k = 0; k < np; k++) {
        const ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
        if (p->kind == UCR_EDGE_BLOCKED)
            continue;
        if (!is_room[p->a] && !is_room[p->b])
            uf_union(parent, p->a, p->b);
    }
    /* The edges: distinct (network, room) pairs. */
    GHashTable *pairs = g_hash_table_new(g_int64_hash, g_int64_equal);
    GArray *keys = g_array_new(FALSE, FALSE, sizeof(gint64));
    char *network_used = g_new0(char, nv + np + 1);
    for (int k = 0; k < np; k++) {
        const ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
        if (p->kind == UCR_EDGE_BLOCKED)
            continue;
        int net = is_room[p->a] && is_room[p->b] ? nv + k
                  : uf_find(parent, is_room[p->a] ? p->b : p->a);
        network_used[net] = 1;
        for (int end = 0; end < 2; end++) {
            int v = end ? p->b : p->a;
            if (is_room[v]) {
                gint64 key = (gint64)net * (nv + np + 1) + v;
                g_array_append_val(keys, key);
            }
        }
    }
    for (guint i = 0; i < keys->len; i++)
        g_hash_table_add(pairs, &g_array_index(keys, gint64, i));
    /* E − V + C over rooms and networks, C by union-find on a fresh copy. */
    int *comp = g_new(int, nv + np + 1);
    for (int i = 0; i < nv + np; i++)
        comp[i] = i;
    int vertices = nrooms, edges = 0;
    for (int i = 0; i < nv + np; i++)
        vertices += network_used[i] && !(i < nv && is_room[i]) && uf_find(parent, i) == i;
    GHashTableIter it;
    gpointer kp;
    g_hash_table_iter_init(&it, pairs);
    while (g_hash_table_iter_next(&it, &kp, NULL)) {
        gint64 key = *(gint64 *)kp;
        uf_union(comp, (int)(key / (nv + np + 1)), (int)(key % (nv + np + 1)));
        edges++;
    }
    int components = 0;
    for (int i = 0; i < nv + np; i++)
        if ((i < nv && is_room[i]) || (network_used[i] && uf_find(parent, i) == i))
            components += uf_find(comp, i) == i;
    g_hash_table_destroy(pairs);
    g_array_free(keys, TRUE);
    g_free(network_used);
    g_free(comp);
    g_free(parent);
    g_free(is_room);
    if (rooms)
        *rooms = nrooms;
    return edges - vertices + components;
}

ucr_graph *ucr_node_graph(const ucr_node *node)
{
    ucr_graph *g = ucr_graph_new((int)node->vertices->len);
    g->nareas = (int)node->areas->len;
    g->entry = node->areas->len ? node->entry_area : -1;
    for (guint i = 0; i < node->passages->len; i++) {
        const ucr_passage *p = &g_array_index(node->passages, ucr_passage, i);
        if (p->kind != UCR_EDGE_BLOCKED)
            ucr_graph_add_edge_length(g, p->a, p->b, (int)p->cells->len);
    }
    for (guint i = 0; i < node->links->len; i++) {
        const ucr_link *l = &g_array_index(node->links, ucr_link, i);
        g->leaves_elsewhere[l->area] = TRUE;
    }
    for (guint i = 0; i < node->vertices->len; i++)
        if (g_array_index(node->vertices, ucr_vertex, i).kind == UCR_VERTEX_EXIT)
            g->leaves_elsewhere[i] = TRUE;
    return g;
}


/* Which ways count when walking the whole megadungeon. */
typedef enum {
    WALK_PASSABLE,     /* everything but collapses (secret doors are found) */
    WALK_NO_SECRET,    /* … and without secret doors */
    WALK_ALL,          /* collapses cleared too: what a rule cut off */
    WALK_BELOW         /* passable, and the levels below the booklet joined to the surface */
} walk_mode;

/* Is the superstructure tunnel behind tunnel link @l of node @i secret? */
static gboolean tunnel_secret(const ucr_megadungeon *md, int i, const ucr_link *l)
{
    for (guint t = 0; t < md->tunnels->len; t++) {
        const ucr_tunnel *tu = &g_array_index(md->tunnels, ucr_tunnel, t);
        if ((tu->from == i && tu->to == l->to_node) || (tu->to == i && tu->from == l->to_node))
            return tu->kind == UCR_TUNNEL_SECRET;
    }
    return FALSE;
}

/* Union-find of every vertex of every node plus the surface (the last one),
 * joined by the ways @mode allows.  The caller frees the result. */
static int *reach(const ucr_megadungeon *md, const int *offset, walk_mode mode)
{
    int nn = (int)md->nodes->len;
    int total = offset[nn] + 1, surface = offset[nn];
    int *parent = g_new(int, total);
    for (int i = 0; i < total; i++)
        parent[i] = i;
    for (int i = 0; i < nn; i++) {
        const ucr_node *node = g_ptr_array_index(md->nodes, i);
        for (guint k = 0; k < node->passages->len; k++) {
            const ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
            if ((p->kind == UCR_EDGE_BLOCKED && mode != WALK_ALL) ||
                (p->kind == UCR_EDGE_SECRET && mode == WALK_NO_SECRET))
                continue;
            uf_union(parent, offset[i] + p->a, offset[i] + p->b);
        }
        for (guint k = 0; k < node->links->len; k++) {
            const ucr_link *l = &g_array_index(node->links, ucr_link, k);
            int here = offset[i] + l->area;
            if (l->exit == UCR_EXIT_SURFACE || (l->exit == UCR_EXIT_BELOW && mode == WALK_BELOW))
                uf_union(parent, here, surface);
            else if (l->exit == UCR_EXIT_NONE && l->to_node >= 0 &&
                     !(mode == WALK_NO_SECRET && l->kind == UCR_LINK_TUNNEL && tunnel_secret(md, i, l)))
                uf_union(parent, here, offset[l->to_node] + l->to_area);
        }
    }
    return parent;
}

/* Why nothing reaches an area, in the order they are tried: seed 004's
 * "2 blocked or collapsed tunnel"; stairs down that lead only below the
 * booklet (the levels there are not generated); tunnels that rolled a wall
 * at both ends (seed 004's "5-7 wall"), which leave a pocket with no way in
 * at all.  The GM reads these, so they say what is there, not which roll. */
/* A collapse is a rule's cut, not a wall: the GM is told how the party gets
 * through, in a time to run at the table (the key's summary of a node keeps
 * the words before the dash). */
static const char *REASON_COLLAPSE = "cut off by a collapsed passage — its rubble can be dug through in 3 turns "
                                     "(30 minutes), noisily: check for wandering monsters each turn";
static const char *REASON_BELOW = "reached only by stairs from the levels below this booklet";
static const char *REASON_WALLED = "walled in: its tunnels end in blank walls at both ends — only digging "
                                   "through rock (a day's work) or magic reaches it";

/* The parts of @node (areas joined by passages that are not collapsed;
 * secret doors count, they are there to be found), the pockets among them
 * and their ways in, the landings: see ucr_stats and ucr_area.pocket_way.
 * Area reasons (ucr_area.unreachable) must be set already. */
static void node_pockets(ucr_node *node)
{
    int nv = (int)node->vertices->len, na = (int)node->areas->len;
    int *part = ucr_node_parts(node);
    /* Where the node is entered: its tunnels and the entrance; a node
     * reached only by stairs is entered at its entry area. */
    char *entered = g_new0(char, nv + 1), *landing = g_new0(char, na + 1);
    bool any = false;
    for (guint k = 0; k < node->links->len; k++) {
        const ucr_link *l = &g_array_index(node->links, ucr_link, k);
        if (l->has_side || l->kind == UCR_LINK_ENTRANCE) {
            entered[part[l->area]] = 1;
            any = true;
        }
        if (!l->has_side)
            landing[l->area] = 1;
    }
    if (!any && na > 0)
        entered[part[node->entry_area]] = 1;
    /* A part's way in: its first area holding stairs or a ladder. */
    int *way = g_new(int, nv + 1);
    for (int v = 0; v < nv; v++)
        way[v] = -1;
    for (int a = na - 1; a >= 0; a--)
        if (landing[a])
            way[part[a]] = a;
    char *counted = g_new0(char, nv + 1);
    node->stats.pockets = 0;
    node->stats.landings = 0;
    for (int a = 0; a < na; a++) {
        ucr_area *area = &g_array_index(node->areas, ucr_area, a);
        int r = part[a];
        node->stats.landings += landing[a];
        area->pocket_way = -1;
        if (entered[r])
            continue;
        if (!counted[r]) {
            counted[r] = 1;
            node->stats.pockets++;
        }
        if (!area->unreachable)
            area->pocket_way = way[r];
    }
    g_free(counted);
    g_free(way);
    g_free(entered);
    g_free(landing);
    g_free(part);
}

/* Levels down (+) or up (-) of the stairs in passage @p, walked from end a
 * to end b. */
static int passage_descent(const ucr_passage *p)
{
    int d = 0;
    for (guint k = 0; p->stairs && k < p->stairs->len; k++) {
        ucr_stair st = g_array_index(p->stairs, ucr_passage_stairs, k).stair;
        d += st == UCR_STAIR_DOWN || st == UCR_LADDER_DOWN ? 1 : st == UCR_STAIR_UP || st == UCR_LADDER_UP ? -1 : 0;
    }
    return d;
}

/* Every area's level: stairs rolled inside a node change the level on the
 * way (seed 004: "9-12 stairs" on a tunnel that goes on), so an area beyond
 * them lies a level down or up.  The areas where the node is joined to
 * others (tunnels, stairs and ladders to other nodes, the entrance) lie on
 * the node's level, which those links agree with; from them, fewest
 * passages first, each passage adds the levels its stairs go down or up.
 * Where two ways disagree the first one found holds, and the other passage
 * slopes back (the key gives each passage's stairs and the level it leads
 * to).  A node with no link starts from its entry area.
 *
 * The levels stay those of the booklet, 1 to @deepest (the deepest node's):
 * above level 1 lies the surface, which no area inside a node is on, and
 * below the deepest node no level has a node of its own (no wandering
 * monsters, no way on but these stairs).  So a flight that would climb
 * above level 1, or go down past the deepest level, climbs or descends and
 * slopes back to the level it left (the key says so, as for any two ways
 * that disagree), and what lies beyond counts from there: stacked stairs in
 * a tunnel (seed 004's rerolls) reach at most the booklet's bottom level.
 * Clamping as the walk goes, not at the end, keeps every later passage's
 * stairs true to the levels either side of it. */
static void node_levels(ucr_node *node, int deepest)
{
    int nv = (int)node->vertices->len, na = (int)node->areas->len;
    int *level = g_new(int, nv + 1), *queue = g_new(int, nv + 1), head = 0, tail = 0;
    bool *set = g_new0(bool, nv + 1);
    for (guint k = 0; k < node->links->len; k++) {
        int a = g_array_index(node->links, ucr_link, k).area;
        if (!set[a]) {
            set[a] = true;
            level[a] = node->depth;
            queue[tail++] = a;
        }
    }
    if (!tail && na > 0) {
        set[node->entry_area] = true;
        level[node->entry_area] = node->depth;
        queue[tail++] = node->entry_area;
    }
    for (;;) {
        while (head < tail) {
            int v = queue[head++];
            for (guint k = 0; k < node->passages->len; k++) {
                const ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
                if (p->a != v && p->b != v)
                    continue;
                int w = p->a == v ? p->b : p->a, d = p->a == v ? passage_descent(p) : -passage_descent(p);
                if (!set[w]) {
                    set[w] = true;
                    level[w] = CLAMP(level[v] + d, 1, deepest);
                    queue[tail++] = w;
                }
            }
        }
        /* A part joined to nothing: on the node's level. */
        int next = -1;
        for (int a = 0; a < na && next < 0; a++)
            if (!set[a])
                next = a;
        if (next < 0)
            break;
        set[next] = true;
        level[next] = node->depth;
        queue[tail++] = next;
    }
    for (int a = 0; a < na; a++)
        g_array_index(node->areas, ucr_area, a).level = level[a];
    g_free(level);
    g_free(queue);
    g_free(set);
}

void ucr_megadungeon_analyse(ucr_megadungeon *md)
{
    int nn = (int)md->nodes->len;
    int *offset = g_new0(int, nn + 1);
    for (int i = 0; i < nn; i++) {
        const ucr_node *node = g_ptr_array_index(md->nodes, i);
        offset[i + 1] = offset[i] + (int)node->vertices->len;
    }
    int surface = offset[nn], deepest = 1;
    for (int i = 0; i < nn; i++)
        deepest = MAX(deepest, ((const ucr_node *)g_ptr_array_index(md->nodes, i))->depth);
    int *open = reach(md, offset, WALK_PASSABLE);
    int *plain = reach(md, offset, WALK_NO_SECRET);
    int *all = reach(md, offset, WALK_ALL);
    int *below = reach(md, offset, WALK_BELOW);
    for (int i = 0; i < nn; i++) {
        ucr_node *node = g_ptr_array_index(md->nodes, i);
        ucr_graph *g = ucr_node_graph(node);
        ucr_graph_analyse(g, &node->stats);
        ucr_graph_free(g);
        node->stats.room_loops = ucr_node_room_loops(node, &node->stats.rooms);
        node->stats.areas = (int)node->areas->len;
        node->stats.passages = (int)node->passages->len;
        node->stats.unreachable = 0;
        node->stats.secret_only = 0;
        node->unreachable = NULL;
        int reached = 0;
        for (guint a = 0; a < node->areas->len; a++) {
            ucr_area *area = &g_array_index(node->areas, ucr_area, a);
            int v = offset[i] + (int)a;
            area->unreachable = NULL;
            if (uf_find(open, v) != uf_find(open, surface)) {
                node->stats.unreachable++;
                area->unreachable = uf_find(all, v) == uf_find(all, surface)       ? REASON_COLLAPSE
                                    : uf_find(below, v) == uf_find(below, surface) ? REASON_BELOW
                                                                                   : REASON_WALLED;
            } else {
                reached++;
                if (uf_find(plain, v) != uf_find(plain, surface))
                    node->stats.secret_only++;
            }
        }
        if (!reached && node->areas->len)
            node->unreachable = g_array_index(node->areas, ucr_area, 0).unreachable;
        node_pockets(node);
        node_levels(node, deepest);
    }
    /* The superstructure: nodes joined by passable tunnels. */
    ucr_graph *sg = ucr_graph_new(nn);
    sg->entry = md->entrance_node;
    for (guint t = 0; t < md->tunnels->len; t++) {
        const ucr_tunnel *tu = &g_array_index(md->tunnels, ucr_tunnel, t);
        if (tu->kind != UCR_TUNNEL_BLOCKED && tu->kind != UCR_TUNNEL_WALL)
            ucr_graph_add_edge(sg, tu->from, tu->to);
    }
    /* A node at the end of one tunnel is no dead end if stairs lead on. */
    for (int i = 0; i < nn; i++) {
        const ucr_node *node = g_ptr_array_index(md->nodes, i);
        for (guint k = 0; k < node->links->len; k++)
            if (g_array_index(node->links, ucr_link, k).kind != UCR_LINK_TUNNEL)
                sg->leaves_elsewhere[i] = TRUE;
    }
    memset(&md->stats, 0, sizeof md->stats);
    ucr_graph_analyse(sg, &md->stats);
    md->stats.areas = nn;
    md->stats.passages = (int)sg->edges->len / 2;
    for (int i = 0; i < nn; i++) {
        const ucr_node *node = g_ptr_array_index(md->nodes, i);
        for (guint k = 0; k < node->links->len; k++) {
            const ucr_link *l = &g_array_index(node->links, ucr_link, k);
            md->stats.hooks_surface += l->exit == UCR_EXIT_SURFACE && l->kind != UCR_LINK_ENTRANCE;
            md->stats.hooks_below += l->exit == UCR_EXIT_BELOW;
        }
        md->stats.unreachable += node->unreachable != NULL;
        md->stats.landings += node->stats.landings;
        md->stats.pockets += node->stats.pockets;
        /* DESIGN "Levels": no node a hub of landings, more than about a
         * quarter of its areas. */
        md->stats.hubs += node->stats.landings * 4 > node->stats.areas;
        /* A node counts as reached only through secret doors when every
         * area of it that is reached is reached only so. */
        md->stats.secret_only += node->stats.secret_only > 0 &&
                                 node->stats.secret_only == node->stats.areas - node->stats.unreachable;
    }
    ucr_graph_free(sg);
    g_free(open);
    g_free(plain);
    g_free(all);
    g_free(below);
    g_free(offset);
}
