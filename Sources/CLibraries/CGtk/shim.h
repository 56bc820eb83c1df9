#pragma once
#include <gtk/gtk.h>
