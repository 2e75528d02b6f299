// The JS class `Histogram` over HdrHistogram (hdr.h). Guards only: the TS
// wrapper (src/metrics/core/histogram.ts) validates properly. Bad arguments throw a
// TypeError with code SB_NATIVE_BAD_ARG; a bad encoding throws an Error with
// code SB_HDR_DECODE. Nothing here can crash the process on bad input.
#include <napi.h>

#include <cmath>
#include <string>

#include "bindings.h"
#include "common/errors.h"
#include "hdr/hdr.h"

namespace servebench {

namespace {

class HistogramWrap : public Napi::ObjectWrap<HistogramWrap> {
 public:
  // `Histogram(significantDigits = 3, highestTrackableValue = 2)`.
  explicit HistogramWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<HistogramWrap>(info), h_(3, 2) {
    Napi::Env env = info.Env();
    int digits = 3;
    double highest = 2;
    if (info.Length() > 0 && !info[0].IsUndefined()) {
      const double d = NumberArg(info, 0, "significantDigits");
      if (d != std::floor(d) || d < HdrHistogram::kMinDigits || d > HdrHistogram::kMaxDigits) {
        ThrowBadArg(env, "Histogram: significantDigits must be an integer from 1 to 5");
      }
      digits = static_cast<int>(d);
    }
    if (info.Length() > 1 && !info[1].IsUndefined()) {
      highest = NumberArg(info, 1, "highestTrackableValue");
      if (highest != std::floor(highest) || highest < 2 || highest > static_cast<double>(HdrHistogram::kMaxValue)) {
        ThrowBadArg(env, "Histogram: highestTrackableValue must be an integer from 2 to 2^62");
      }
    }
    h_ = HdrHistogram(digits, std::min(static_cast<int64_t>(highest), HdrHistogram::kMaxValue));
  }

  static Napi::Function Define(Napi::Env env, Napi::FunctionReference* self) {
    return DefineClass(env, "Histogram",
                       {
                           InstanceMethod<&HistogramWrap::RecordOne>("record"),
                           InstanceMethod<&HistogramWrap::RecordValues>("recordValues"),
                           InstanceMethod<&HistogramWrap::RecordWeightedValues>("recordWeighted"),
                           InstanceMethod<&HistogramWrap::Percentile>("valueAtPercentile"),
                           InstanceMethod<&HistogramWrap::Percentiles>("valuesAtPercentiles"),
                           InstanceMethod<&HistogramWrap::ModeOf>("mode"),
                           InstanceMethod("merge", &HistogramWrap::Merge, napi_default, self),
                           InstanceMethod<&HistogramWrap::ResetAll>("reset"),
                           InstanceMethod<&HistogramWrap::EncodeV2>("encode"),
                           StaticMethod("decode", &HistogramWrap::DecodeV2, napi_default, self),
                           InstanceAccessor<&HistogramWrap::Count>("count"),
                           InstanceAccessor<&HistogramWrap::Min>("min"),
                           InstanceAccessor<&HistogramWrap::Max>("max"),
                           InstanceAccessor<&HistogramWrap::Mean>("mean"),
                           InstanceAccessor<&HistogramWrap::Std>("std"),
                           InstanceAccessor<&HistogramWrap::Sum>("sum"),
                           InstanceAccessor<&HistogramWrap::Clamped>("clamped"),
                           InstanceAccessor<&HistogramWrap::Digits>("significantDigits"),
                           InstanceAccessor<&HistogramWrap::Highest>("highestTrackableValue"),
                       });
  }

 private:
  static double NumberArg(const Napi::CallbackInfo& info, size_t i, const char* name) {
    if (info.Length() <= i || !info[i].IsNumber()) {
      ThrowBadArg(info.Env(), std::string("Histogram: ") + name + " must be a number");
    }
    const double v = info[i].As<Napi::Number>().DoubleValue();
    if (!std::isfinite(v)) ThrowBadArg(info.Env(), std::string("Histogram: ") + name + " must be finite");
    return v;
  }

  double ScaleArg(const Napi::CallbackInfo& info, size_t i) {
    if (info.Length() <= i || info[i].IsUndefined()) return 1.0;
    const double s = NumberArg(info, i, "scale");
    if (s <= 0) ThrowBadArg(info.Env(), "Histogram: scale must be greater than 0");
    return s;
  }

  void RecordOne(const Napi::CallbackInfo& info) {
    const double v = NumberArg(info, 0, "value");
    if (!h_.Record(v, ScaleArg(info, 1)))
      ThrowBadArg(info.Env(), "Histogram.record: value times scale must be below 2^62");
  }

  void RecordValues(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (info.Length() < 1 || !info[0].IsTypedArray()) {
      ThrowBadArg(env, "Histogram.recordValues: values must be a Float64Array or BigInt64Array");
    }
    // The scale is read before the array's pointer: reading it cannot run JS that detaches the buffer.
    const double scale = ScaleArg(info, 1);
    Napi::TypedArray ta = info[0].As<Napi::TypedArray>();
    const size_t n = ta.ElementLength();
    size_t done;
    if (ta.TypedArrayType() == napi_float64_array) {
      const double* p = info[0].As<Napi::Float64Array>().Data();
      done = n == 0 || p == nullptr ? n : h_.RecordBatch(p, n, scale);
    } else if (ta.TypedArrayType() == napi_bigint64_array) {
      const int64_t* p = info[0].As<Napi::TypedArrayOf<int64_t>>().Data();
      done = n == 0 || p == nullptr ? n : h_.RecordBatch(p, n, scale);
    } else {
      ThrowBadArg(env, "Histogram.recordValues: values must be a Float64Array or BigInt64Array");
    }
    if (done != n) {
      ThrowBadArg(env, "Histogram.recordValues: values[" + std::to_string(done) +
                           "] times scale is NaN, infinite or not below 2^62; nothing was recorded");
    }
  }

  void RecordWeightedValues(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    const auto isF64 = [&](size_t i) {
      return info.Length() > i && info[i].IsTypedArray() &&
             info[i].As<Napi::TypedArray>().TypedArrayType() == napi_float64_array;
    };
    if (!isF64(0) || !isF64(1)) ThrowBadArg(env, "Histogram.recordWeighted: values and weights must be Float64Arrays");
    const double scale = ScaleArg(info, 2);
    Napi::Float64Array values = info[0].As<Napi::Float64Array>();
    Napi::Float64Array weights = info[1].As<Napi::Float64Array>();
    const size_t n = values.ElementLength();
    if (weights.ElementLength() != n)
      ThrowBadArg(env, "Histogram.recordWeighted: values and weights must have the same length");
    if (n == 0 || values.Data() == nullptr || weights.Data() == nullptr) return;
    const size_t done = h_.RecordWeighted(values.Data(), weights.Data(), n, scale);
    if (done != n) {
      ThrowBadArg(env, "Histogram.recordWeighted: entry " + std::to_string(done) +
                           " has a value times scale that is NaN, infinite or not below 2^62, or a weight that is not "
                           "a whole number from 0 to 2^53; nothing was recorded");
    }
  }

  static double PercentileArg(Napi::Env env, double p) {
    if (!(p >= 0 && p <= 100)) ThrowBadArg(env, "Histogram: a percentile must be a number from 0 to 100");
    return p;
  }

  Napi::Value Percentile(const Napi::CallbackInfo& info) {
    const double p = PercentileArg(info.Env(), NumberArg(info, 0, "percentile"));
    return Napi::Number::New(info.Env(), h_.ValueAtPercentile(p));
  }

  Napi::Value Percentiles(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (info.Length() < 1 || !info[0].IsTypedArray() ||
        info[0].As<Napi::TypedArray>().TypedArrayType() != napi_float64_array) {
      ThrowBadArg(env, "Histogram.valuesAtPercentiles: percentiles must be a Float64Array");
    }
    Napi::Float64Array in = info[0].As<Napi::Float64Array>();
    const size_t n = in.ElementLength();
    std::vector<double> ps(n);
    for (size_t i = 0; i < n; ++i) ps[i] = PercentileArg(env, in[i]);
    Napi::Float64Array out = Napi::Float64Array::New(env, n);
    if (n > 0) h_.ValuesAtPercentiles(ps.data(), n, out.Data());
    return out;
  }

  Napi::Value ModeOf(const Napi::CallbackInfo& info) {
    double value = 0;
    int64_t count = 0;
    h_.Mode(&value, &count);
    Napi::Object out = Napi::Object::New(info.Env());
    out.Set("value", Napi::Number::New(info.Env(), value));
    out.Set("count", Napi::Number::New(info.Env(), static_cast<double>(count)));
    return out;
  }

  void Merge(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    auto* ctor = static_cast<Napi::FunctionReference*>(info.Data());
    if (info.Length() < 1 || !info[0].IsObject() || !info[0].As<Napi::Object>().InstanceOf(ctor->Value())) {
      ThrowBadArg(env, "Histogram.merge: other must be a Histogram");
    }
    HistogramWrap* other = Unwrap(info[0].As<Napi::Object>());
    if (other == nullptr) ThrowBadArg(env, "Histogram.merge: other must be a Histogram");
    if (!h_.Merge(other->h_))
      ThrowBadArg(env, "Histogram.merge: both histograms must have the same significant digits");
  }

  void ResetAll(const Napi::CallbackInfo&) { h_.Reset(); }

  Napi::Value EncodeV2(const Napi::CallbackInfo& info) {
    const std::vector<uint8_t> bytes = h_.Encode();
    return Napi::Buffer<uint8_t>::Copy(info.Env(), bytes.data(), bytes.size());
  }

  static Napi::Value DecodeV2(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (info.Length() < 1 || !info[0].IsTypedArray() ||
        info[0].As<Napi::TypedArray>().TypedArrayType() != napi_uint8_array) {
      ThrowBadArg(env, "Histogram.decode: data must be a Buffer (Uint8Array)");
    }
    Napi::Uint8Array data = info[0].As<Napi::Uint8Array>();
    HdrHistogram decoded(3, 2);
    std::string error;
    if (!HdrHistogram::Decode(data.Data(), data.Data() ? data.ElementLength() : 0, &decoded, &error)) {
      ThrowCoded(env, "SB_HDR_DECODE", "Histogram.decode: " + error, ErrorKind::kError);
    }
    auto* ctor = static_cast<Napi::FunctionReference*>(info.Data());
    Napi::Object obj = ctor->New({Napi::Number::New(env, decoded.digits())});
    Unwrap(obj)->h_ = std::move(decoded);
    return obj;
  }

  Napi::Value Num(Napi::Env env, double v) { return Napi::Number::New(env, v); }
  Napi::Value Count(const Napi::CallbackInfo& i) { return Num(i.Env(), static_cast<double>(h_.count())); }
  Napi::Value Min(const Napi::CallbackInfo& i) { return Num(i.Env(), h_.min()); }
  Napi::Value Max(const Napi::CallbackInfo& i) { return Num(i.Env(), h_.max()); }
  Napi::Value Mean(const Napi::CallbackInfo& i) { return Num(i.Env(), h_.mean()); }
  Napi::Value Std(const Napi::CallbackInfo& i) { return Num(i.Env(), h_.stddev()); }
  Napi::Value Sum(const Napi::CallbackInfo& i) { return Num(i.Env(), h_.sum()); }
  Napi::Value Clamped(const Napi::CallbackInfo& i) { return Num(i.Env(), static_cast<double>(h_.clamped())); }
  Napi::Value Digits(const Napi::CallbackInfo& i) { return Num(i.Env(), h_.digits()); }
  Napi::Value Highest(const Napi::CallbackInfo& i) { return Num(i.Env(), static_cast<double>(h_.highest_trackable())); }

  HdrHistogram h_;
};

}  // namespace

void RegisterHdr(Napi::Env env, Napi::Object exports) {
  // The constructor, for merge's instanceof check and decode's new instance;
  // one per environment (worker threads load the addon again), freed with it.
  auto* ctor = new Napi::FunctionReference();
  env.AddCleanupHook([ctor]() { delete ctor; });
  Napi::Function cls = HistogramWrap::Define(env, ctor);
  *ctor = Napi::Persistent(cls);
  exports.Set("Histogram", cls);
}

}  // namespace servebench
