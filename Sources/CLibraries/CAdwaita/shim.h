#pragma once
#include <adwaita.h>
