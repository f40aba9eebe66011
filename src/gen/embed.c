/* undercroft — the two ways a node method embeds its node (gen/embed.h). */
#include "gen/embed.h"

#include "core/error.h"
#include "gen/attach.h"

static ucr_node *retry(const char *id, int col, int row, const char *method, int width, int height, int attempts,
                       const ucr_tables *tables, const ucr_node_request *req, ucr_prng *rng, ucr_embed_draw draw,
                       void *data, bool joined, GError **error)
{
    ucr_node *node = ucr_node_new(id, col, row);
    node->method = method;
    node->width = width;
    node->height = height;
    for (int attempt = 0; attempt < attempts; attempt++) {
        ucr_pc *pc = ucr_pc_new(node, rng, tables);
        bool ok = draw(pc, data) && node->unplaced == 0 && ucr_pc_attach(pc, req) &&
                  (!joined || ucr_embed_joined(node));
        ucr_pc_free(pc);
        if (ok)
            return node;
        ucr_pc_node_reset(node);
    }
    g_set_error(error, UCR_ERROR, UCR_ERROR_SOFTWARE, "node %s: no layout in %d attempts (please report the seed)",
                id, attempts);
    ucr_node_free(node);
    return NULL;
}

ucr_node *ucr_embed_retry(const char *id, int col, int row, const char *method, int width, int height,
                          int attempts, const ucr_tables *tables, const ucr_node_request *req,
                          ucr_prng *rng, ucr_embed_draw draw, void *data, GError **error)
{
    return retry(id, col, row, method, width, height, attempts, tables, req, rng, draw, data, false, error);
}

ucr_node *ucr_embed_retry_joined(const char *id, int col, int row, const char *method, int width, int height,
                                 int attempts, const ucr_tables *tables, const ucr_node_request *req,
                                 ucr_prng *rng, ucr_embed_draw draw, void *data, GError **error)
{
    return retry(id, col, row, method, width, height, attempts, tables, req, rng, draw, data, true, error);
}

static int root_find(int *parent, int x)
{
    while (parent[x] != x)
        x = parent[x] = parent[parent[x]];
    return x;
}

bool ucr_embed_joined(const ucr_node *node)
{
    int nv = (int)node->vertices->len, na = (int)node->areas->len;
    int *parent = g_new(int, nv + 1);
    for (int i = 0; i < nv; i++)
        parent[i] = i;
    for (guint k = 0; k < node->passages->len; k++) {
        const ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
        parent[root_find(parent, p->a)] = root_find(parent, p->b);
    }
    bool ok = true;
    for (int a = 1; a < na && ok; a++)
        ok = root_find(parent, a) == root_find(parent, 0);
    g_free(parent);
    return ok;
}

ucr_node *ucr_embed_take(ucr_node **slot, const char *id, int col, int row, const char *method,
                         GError **error)
{
    ucr_node *node = *slot;
    if (!node) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_SOFTWARE, "node %s: %s plan embedded twice", id, method);
        return NULL;
    }
    *slot = NULL;
    g_free(node->id);
    node->id = g_strdup(id);
    node->col = col;
    node->row = row;
    return node;
}

void ucr_embed_joins_drawn(ucr_node *node, const ucr_node_request *req, const int join_passage[4],
                           const int join_area[4])
{
    for (int d = 0; d < 4; d++) {
        const ucr_join_request *j = &req->joins[d];
        if (!j->used)
            continue;
        int pk = join_passage[d], ai = join_area[d];
        if (pk < 0) {
            node->unplaced++;
            continue;
        }
        ucr_passage *p = &g_array_index(node->passages, ucr_passage, pk);
        if (ucr_half_has(&j->half, UCR_STEP_BLOCKED)) {
            p->kind = UCR_EDGE_BLOCKED;
            p->rubble = (int)p->cells->len / 2;
        }
        ucr_attach_tunnel_door(node, &j->half, ai, pk);
        if (j->link >= 0)
            req->link_area[j->link] = ai;
    }
}

void ucr_embed_arrivals(ucr_node *node, const ucr_node_request *req, ucr_prng *rng, ucr_embed_landing first,
                        ucr_embed_landing fallback, void *data)
{
    ucr_canvas *cv = ucr_attach_canvas(node);
    ucr_embed_arrivals_on(node, cv, req, rng, first, fallback, data);
    ucr_canvas_free(cv);
}

void ucr_embed_arrivals_on(ucr_node *node, ucr_canvas *cv, const ucr_node_request *req, ucr_prng *rng,
                           ucr_embed_landing first, ucr_embed_landing fallback, void *data)
{
    for (int k = 0; k < req->n_arrivals; k++) {
        const ucr_arrival *arr = &req->arrivals[k];
        int li = first ? first(node, cv, arr, data) : -1;
        if (li < 0)
            li = ucr_attach_landing(node, cv, arr->stair, rng);
        if (li < 0 && fallback)
            li = fallback(node, cv, arr, data);
        if (li < 0) {
            node->unplaced++;
            continue;
        }
        req->link_area[arr->link] = li;
    }
}
