#pragma once
#include <gst/video/video.h>
