// Turns finished engine records into the batch object onRecords receives (see EngineBatch in
// src/native-types.ts): one call per batch, columns instead of one object per record.
#pragma once

#include <napi.h>

#include <vector>

#include "engine/engine.h"

namespace servebench {

// Consumes `recs` (their strings are moved into JS values).
Napi::Object BuildEngineBatch(Napi::Env env, std::vector<EngineRecord>& recs);

}  // namespace servebench
