// SPDX-License-Identifier: GPL-3.0-or-later
// A GListModel of item ids for GtkListView: the ids live in one array (8 bytes an item) and a
// row's object is made only when GTK asks for it, i.e. for the rows on screen. A GListStore of
// 100,000 GObjects would cost a GObject each, made and freed on the main thread at every change.
#include "CShims.h"

struct _ReelIdItem {
  GObject parent;
  gint64 id;
};
G_DEFINE_FINAL_TYPE(ReelIdItem, reel_id_item, G_TYPE_OBJECT)
static void reel_id_item_class_init(ReelIdItemClass *klass) { (void)klass; }
static void reel_id_item_init(ReelIdItem *item) { (void)item; }

gint64 reel_id_item_get_id(gpointer item) { return REEL_IS_ID_ITEM(item) ? REEL_ID_ITEM(item)->id : -1; }

struct _ReelIdList {
  GObject parent;
  GArray *ids;
};

static GType list_item_type(GListModel *model) { (void)model; return REEL_TYPE_ID_ITEM; }
static guint list_n_items(GListModel *model) { return REEL_ID_LIST(model)->ids->len; }

static gpointer list_get_item(GListModel *model, guint position) {
  GArray *ids = REEL_ID_LIST(model)->ids;
  if (position >= ids->len) return NULL;
  ReelIdItem *item = g_object_new(REEL_TYPE_ID_ITEM, NULL);
  item->id = g_array_index(ids, gint64, position);
  return item;
}

static void reel_id_list_model_init(GListModelInterface *iface) {
  iface->get_item_type = list_item_type;
  iface->get_n_items = list_n_items;
  iface->get_item = list_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE(ReelIdList, reel_id_list, G_TYPE_OBJECT,
                              G_IMPLEMENT_INTERFACE(G_TYPE_LIST_MODEL, reel_id_list_model_init))

static void reel_id_list_finalize(GObject *object) {
  g_array_unref(REEL_ID_LIST(object)->ids);
  G_OBJECT_CLASS(reel_id_list_parent_class)->finalize(object);
}

static void reel_id_list_class_init(ReelIdListClass *klass) { G_OBJECT_CLASS(klass)->finalize = reel_id_list_finalize; }
static void reel_id_list_init(ReelIdList *list) { list->ids = g_array_new(FALSE, FALSE, sizeof(gint64)); }

ReelIdList *reel_id_list_new(void) { return g_object_new(REEL_TYPE_ID_LIST, NULL); }

void reel_id_list_splice(ReelIdList *list, guint position, guint removed, const gint64 *added, guint n_added) {
  g_return_if_fail(position + removed <= list->ids->len);
  if (removed > 0) g_array_remove_range(list->ids, position, removed);
  if (n_added > 0) g_array_insert_vals(list->ids, position, added, n_added);
  if (removed > 0 || n_added > 0) g_list_model_items_changed(G_LIST_MODEL(list), position, removed, n_added);
}
