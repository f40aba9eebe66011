#include "key/analysis.h"

#include <string.h>

ucr_graph *ucr_graph_new(int nvertices)
{
    ucr_graph *g = g_new0(ucr_graph, 1);
    g->nvertices = nvertices;
    g->edges = g_array_new(FALSE, FALSE, sizeof(int));
    g->leaves_elsewhere = g_new0(gboolean, nvertices > 0 ? nvertices : 1);
    return g;
}

void ucr_graph_add_edge(ucr_graph *g, int u, int v)
{
    g_array_append_val(g->edges, u);
    g_array_append_val(g->edges, v);
}

void ucr_graph_free(ucr_graph *g)
{
    if (!g)
        return;
    g_array_free(g->edges, TRUE);
    g_free(g->leaves_elsewhere);
    g_free(g);
}

typedef struct {
    const ucr_graph *g;
    int *adj_start, *adj;   /* CSR adjacency: neighbour vertex and edge id */
    int *adj_edge;
    int *disc, *low;
    int timer;
    int *is_cut;
    int bridges;
} dfs_state;

/* Tarjan's low-link DFS, iterative so that large graphs cannot overflow the
 * stack.  Parallel edges are told apart by edge id, so a doubled passage is a
 * loop, not a bridge. */
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
            if (e == stack_pe[top])
                continue;
            if (s->disc[w]) {
                if (s->disc[w] < s->low[v])
                    s->low[v] = s->disc[w];
                continue;
            }
            s->disc[w] = s->low[w] = ++s->timer;
            if (v == root)
                root_children++;
            top++;
            stack_v[top] = w;
            stack_pe[top] = e;
            stack_it[top] = s->adj_start[w];
        } else {
            top--;
            if (top < 0)
                break;
            int parent = stack_v[top];
            if (s->low[v] < s->low[parent])
                s->low[parent] = s->low[v];
            if (s->low[v] > s->disc[parent])
                s->bridges++;
            if (parent != root && s->low[v] >= s->disc[parent])
                s->is_cut[parent] = 1;
        }
    }
    if (root_children > 1)
        s->is_cut[root] = 1;
    g_free(stack_v);
    g_free(stack_pe);
    g_free(stack_it);
}

void ucr_graph_analyse(const ucr_graph *g, ucr_stats *stats)
{
    int n = g->nvertices, m = (int)g->edges->len / 2;
    const int *ev = (const int *)g->edges->data;
    dfs_state s = { 0 };
    s.g = g;
    s.adj_start = g_new0(int, n + 1);
    s.adj = g_new(int, 2 * m + 1);
    s.adj_edge = g_new(int, 2 * m + 1);
    int *degree = g_new0(int, n + 1);
    for (int e = 0; e < m; e++) {
        degree[ev[2 * e]]++;
        if (ev[2 * e + 1] != ev[2 * e])
            degree[ev[2 * e + 1]]++;
    }
    for (int v = 0; v < n; v++)
        s.adj_start[v + 1] = s.adj_start[v] + degree[v];
    int *fill = g_new0(int, n + 1);
    for (int e = 0; e < m; e++) {
        int u = ev[2 * e], v = ev[2 * e + 1];
        s.adj[s.adj_start[u] + fill[u]] = v;
        s.adj_edge[s.adj_start[u] + fill[u]++] = e;
        if (u != v) {
            s.adj[s.adj_start[v] + fill[v]] = u;
            s.adj_edge[s.adj_start[v] + fill[v]++] = e;
        }
    }
    s.disc = g_new0(int, n + 1);
    s.low = g_new0(int, n + 1);
    s.is_cut = g_new0(int, n + 1);
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
    for (int v = 0; v < n; v++) {
        stats->chokepoints += s.is_cut[v];
        /* A self-loop counts twice towards degree in graph theory, but a
         * corridor that leaves and re-enters the same room is still a way
         * out, so degree[] (counted once) is the right test here. */
        if (degree[v] == 1 && !g->leaves_elsewhere[v])
            stats->dead_ends++;
    }
    g_free(degree);
    g_free(fill);
    g_free(s.adj_start);
    g_free(s.adj);
    g_free(s.adj_edge);
    g_free(s.disc);
    g_free(s.low);
    g_free(s.is_cut);
}

ucr_graph *ucr_node_graph(const ucr_node *node)
{
    ucr_graph *g = ucr_graph_new((int)node->vertices->len);
    for (guint i = 0; i < node->passages->len; i++) {
        const ucr_passage *p = &g_array_index(node->passages, ucr_passage, i);
        if (p->kind != UCR_EDGE_BLOCKED)
            ucr_graph_add_edge(g, p->a, p->b);
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

/* Union-find over every vertex of every node, for reachability. */
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

void ucr_megadungeon_analyse(ucr_megadungeon *md)
{
    int nn = (int)md->nodes->len;
    int *offset = g_new0(int, nn + 1);
    for (int i = 0; i < nn; i++) {
        const ucr_node *node = g_ptr_array_index(md->nodes, i);
        offset[i + 1] = offset[i] + (int)node->vertices->len;
    }
    int total = offset[nn] + 1;   /* the last vertex is the surface */
    int surface = offset[nn];
    int *parent = g_new(int, total);
    for (int i = 0; i < total; i++)
        parent[i] = i;
    for (int i = 0; i < nn; i++) {
        ucr_node *node = g_ptr_array_index(md->nodes, i);
        ucr_graph *g = ucr_node_graph(node);
        ucr_graph_analyse(g, &node->stats);
        node->stats.areas = (int)node->areas->len;
        node->stats.passages = (int)node->passages->len;
        const int *ev = (const int *)g->edges->data;
        for (guint e = 0; e < g->edges->len / 2; e++)
            uf_union(parent, offset[i] + ev[2 * e], offset[i] + ev[2 * e + 1]);
        ucr_graph_free(g);
        for (guint k = 0; k < node->links->len; k++) {
            const ucr_link *l = &g_array_index(node->links, ucr_link, k);
            int here = offset[i] + l->area;
            if (l->exit == UCR_EXIT_SURFACE)
                uf_union(parent, here, surface);
            else if (l->exit == UCR_EXIT_NONE && l->to_node >= 0)
                uf_union(parent, here, offset[l->to_node] + l->to_area);
        }
    }
    for (int i = 0; i < nn; i++) {
        ucr_node *node = g_ptr_array_index(md->nodes, i);
        node->stats.unreachable = 0;
        for (guint a = 0; a < node->areas->len; a++)
            if (uf_find(parent, offset[i] + (int)a) != uf_find(parent, surface))
                node->stats.unreachable++;
    }
    /* The superstructure: nodes joined by passable tunnels. */
    ucr_graph *sg = ucr_graph_new(nn);
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
    ucr_graph_free(sg);
    g_free(parent);
    g_free(offset);
}
