#pragma once
#include <gst/app/app.h>
