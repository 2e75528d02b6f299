// Library handling shared by the GPU vendor backends (telemetry_nvml.cc, telemetry_amdsmi.cc).
#include "gpu/telemetry_backend.h"

#include <dlfcn.h>

namespace servebench {

void* OpenLibrary(const std::vector<std::string>& candidates, std::string* loaded, std::string* error) {
  for (const std::string& path : candidates) {
    *loaded = path;
    void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (lib) return lib;
    const char* e = dlerror();
    *error = e ? e : ("cannot load " + path);
  }
  if (candidates.empty()) *error = "no library path given";
  return nullptr;
}

void* OpenLibraryOrReport(const std::vector<std::string>& candidates, LibStatus* status) {
  std::string err;
  void* lib = OpenLibrary(candidates, &status->path, &err);
  if (!lib) {
    status->state = "not_found";
    status->message = err;
  }
  return lib;
}

void CloseLibrary(void* lib) { dlclose(lib); }

void* LibrarySymbol(void* lib, const char* name) { return dlsym(lib, name); }

std::nullptr_t FailOpen(LibStatus* status, const char* state, std::string message, void* lib) {
  status->state = state;
  status->message = std::move(message);
  dlclose(lib);
  return nullptr;
}

void ReportOpened(LibStatus* status) {
  status->state = "ok";
  status->message.clear();
}

}  // namespace servebench
