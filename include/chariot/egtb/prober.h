// The engine's tablebase prober (chariot/tablebase.h) over a folder of table
// files: the folder is listed when `egtbpath` is set, each file opened (read
// and checked) on its first probe.
#pragma once

#include "chariot/tablebase.h"

namespace chariot::egtb {

// The loader main.cpp and the tools give the engine (Engine::setTablebaseLoader).
TablebaseLoader tablebaseLoader();

}  // namespace chariot::egtb
