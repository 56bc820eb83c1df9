#pragma once
#include <gst/play/play.h>
