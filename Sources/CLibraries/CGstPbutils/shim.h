#pragma once
#include <gst/pbutils/pbutils.h>
