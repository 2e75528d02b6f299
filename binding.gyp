{
  "targets": [
    {
      "target_name": "servebench_native",
      "sources": [
        "native/addon.cc",
        "native/errors.cc",
        "native/js_values.cc",
        "native/sse.cc",
        "native/sse_binding.cc",
        "native/json_scan.cc",
        "native/sse_decode.cc",
        "native/sse_decode_binding.cc",
        "native/timeline.cc",
        "native/timeline_sort.cc",
        "native/timeline_binding.cc",
        "native/hdr.cc",
        "native/hdr_codec.cc",
        "native/hdr_binding.cc",
        "native/http1.cc",
        "native/http1_binding.cc",
        "native/engine.cc",
        "native/engine_loop.cc",
        "native/engine_conn.cc",
        "native/engine_tls.cc",
        "native/engine_req.cc",
        "native/engine_sched.cc",
        "native/engine_binding.cc",
        "native/engine_batch_binding.cc",
        "native/mockserver.cc",
        "native/mockserver_format.cc",
        "native/mockserver_binding.cc",
        "native/mockserver_tls.cc",
        "native/power.cc",
        "native/power_binding.cc",
        "native/telemetry_backend.cc",
        "native/telemetry_nvml.cc",
        "native/telemetry_amdsmi.cc"
      ],
      "libraries": ["-ldl"],
      "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")"],
      "defines": ["NAPI_VERSION=8", "NODE_ADDON_API_DISABLE_DEPRECATED", "NAPI_CPP_EXCEPTIONS"],
      "cflags!": ["-fno-exceptions"],
      "cflags_cc!": ["-fno-exceptions"],
      "cflags_cc": ["-std=c++17", "-O3", "-Wall", "-Wextra"],
      "xcode_settings": { "GCC_ENABLE_CPP_EXCEPTIONS": "YES", "CLANG_CXX_LANGUAGE_STANDARD": "c++17" }
    }
  ]
}
