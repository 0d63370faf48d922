// The C++ half of the plugin: only what needs C++. The passes and all their
// logic live in Rust (offload_passes_core); this file registers them with the
// PassBuilder and hands each run to Rust as an LLVMModuleRef.
//
// Registration, for every pass Rust lists (offload_passes_pass_count/names):
//  * a pipeline-parsing callback accepting `name` and `name<params>`; the
//    parameters are parsed once, there, into the Rust pass value; bad ones
//    are reported and the name is refused (the tool then fails the pipeline);
//  * addClassToPassName, so -print-pipeline-passes prints names that parse,
//    with one C++ class per pass (a slot) so that instrumentation names
//    (-debug-pass-manager, -time-passes) are distinct;
//  * opt-in extension points: OFFLOAD_PASSES_PIPELINE_START and
//    OFFLOAD_PASSES_OPTIMIZER_LAST hold a textual module pipeline that is
//    added at that point (how rustc runs the passes with only -Zllvm-plugins).
//    OPTIMIZER_LAST is the end of the optimisation of the final phase: the
//    module pipeline without LTO, each ThinLTO backend (post-link), and the
//    end of full LTO's link-time pipeline (FullLinkTimeOptimizationLast);
//    never an LTO pre-link pipeline, whose module is not the one that becomes
//    code (and, for full LTO, not yet the whole program).
//
// Errors never go through report_fatal_error: under rustc, a fatal error in
// one codegen thread exits the process while other threads run plugin code.
// A pass error is an LLVM error diagnostic (rustc and opt print it and fail).

#include "llvm/IR/DiagnosticHandler.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm-c/Types.h"

#include <array>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace llvm;

// Implemented in Rust (plugin/src/lib.rs).
extern "C" {
size_t offload_passes_pass_count();
const char *offload_passes_pass_names(size_t index, size_t *name_len,
                                      const char **class_name,
                                      size_t *class_len);
void *offload_passes_parse(size_t index, const char *params, size_t len,
                           void *error);
void offload_passes_drop(void *pass);
int offload_passes_run(const void *pass, LLVMModuleRef module, void *error,
                       void *warnings);
}

// Called from Rust to hand text back to C++.
extern "C" void offload_passes_set_string(void *out, const char *msg,
                                          size_t len) {
  static_cast<std::string *>(out)->assign(msg, len);
}

extern "C" void offload_passes_add_warning(void *sink, const char *msg,
                                           size_t len) {
  static_cast<std::vector<std::string> *>(sink)->emplace_back(msg, len);
}

namespace {

// ---------------------------------------------------------------------------
// Diagnostics.

// A pass error, as the diagnostic kind rustc reports as an error
// (DK_Unsupported: rustc's handler emits those with `emit_err` and ignores
// kinds it does not know, DK_Generic included). It prints only the message,
// which already names the pass, the kernel and what is wrong.
class OffloadPassError final : public DiagnosticInfoUnsupported {
  const std::string &Message;

public:
  OffloadPassError(const Function &F, const Twine &Text,
                   const std::string &Message)
      : DiagnosticInfoUnsupported(F, Text), Message(Message) {}
  void print(DiagnosticPrinter &DP) const override { DP << Message; }
};

// A pass warning. DK_Linker is the one kind rustc prints as a warning
// (`emit_warn`; no LLVM class is tied to it, so no handler casts it to
// another class); opt prints it as a warning too.
class OffloadPassWarning final : public DiagnosticInfo {
  const std::string &Message;

public:
  explicit OffloadPassWarning(const std::string &Message)
      : DiagnosticInfo(DK_Linker, DS_Warning), Message(Message) {}
  void print(DiagnosticPrinter &DP) const override { DP << Message; }
};

// True when `Ctx` still has LLVM's own default handler (opt, llc): then
// LLVMContext::diagnose prints the error and calls exit(1) itself. (Its
// vtable is libLLVM's: the class has out-of-line virtual functions.)
bool hasDefaultDiagnosticHandler(const LLVMContext &Ctx) {
  static const DiagnosticHandler Default;
  const DiagnosticHandler *Handler = Ctx.getDiagHandlerPtr();
  return Handler && !Handler->DiagHandlerCallback &&
         *reinterpret_cast<void *const *>(Handler) ==
             *reinterpret_cast<void *const *>(&Default);
}

// Reports a pass error through the module's LLVMContext, so it reaches the
// tool as a compiler error: rustc prints it and fails the compilation after
// its codegen threads are done. The pass has left the module unchanged, so
// the pipeline may go on.
void reportPassError(Module &M, const std::string &Message) {
  LLVMContext &Ctx = M.getContext();
  // The diagnostic class needs a function to point at; every pass checks its
  // input before changing it, so the module is as the user wrote it.
  Function *Anchor = M.empty() ? nullptr : &*M.begin();
  bool Temporary = !Anchor;
  if (Temporary)
    Anchor = Function::Create(FunctionType::get(Type::getVoidTy(Ctx), false),
                              GlobalValue::ExternalLinkage,
                              "offload-passes.error", M);
  // With LLVM's default handler diagnose() exits: remove the output files
  // the tool registered (opt's -o), as report_fatal_error would.
  if (hasDefaultDiagnosticHandler(Ctx))
    sys::RunInterruptHandlers();
  Twine Text(Message);
  Ctx.diagnose(OffloadPassError(*Anchor, Text, Message));
  if (Temporary)
    Anchor->eraseFromParent();
}

// Prints an error found while parsing a pipeline, once per process (LLVM
// may ask a parsing callback about one name several times). The callback
// then refuses the name, and the tool fails the pipeline its own way.
void reportParseError(const std::string &Message) {
  static std::mutex Lock;
  static std::set<std::string> Reported;
  std::lock_guard<std::mutex> Guard(Lock);
  if (Reported.insert(Message).second)
    WithColor::error() << Message << '\n';
}

// ---------------------------------------------------------------------------
// The passes Rust lists.

struct PassEntry {
  StringRef Name;
  StringRef ClassName;
};

const std::vector<PassEntry> &passEntries() {
  static const std::vector<PassEntry> Entries = [] {
    std::vector<PassEntry> Out;
    for (size_t I = 0, N = offload_passes_pass_count(); I < N; ++I) {
      size_t NameLen = 0, ClassLen = 0;
      const char *Class = nullptr;
      const char *Name = offload_passes_pass_names(I, &NameLen, &Class, &ClassLen);
      Out.push_back({StringRef(Name, NameLen), StringRef(Class, ClassLen)});
    }
    return Out;
  }();
  return Entries;
}

// A Rust pass value; freed in Rust when the last copy of the pass goes.
using RustPass = std::shared_ptr<void>;

// Reports every Rust warning of a run, then the error if there is one.
bool deliver(Module &M, const std::vector<std::string> &Warnings,
             const std::string *Error) {
  for (const std::string &Warning : Warnings)
    M.getContext().diagnose(OffloadPassWarning(Warning));
  if (Error)
    reportPassError(M, *Error);
  return !Error;
}

// One class per pass slot, so that each pass has its own instrumentation
// name; the name itself comes from Rust.
template <size_t Slot>
struct OffloadModulePass : PassInfoMixin<OffloadModulePass<Slot>> {
  RustPass Pass;
  std::string Params;

  OffloadModulePass(RustPass Pass, StringRef Params)
      : Pass(std::move(Pass)), Params(Params.str()) {}

  static StringRef name() { return passEntries()[Slot].ClassName; }
  // The ABI rewrites are needed for correctness, also at -O0 and under optnone.
  static bool isRequired() { return true; }

  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    std::string Error;
    std::vector<std::string> Warnings;
    int Result = offload_passes_run(Pass.get(), wrap(&M), &Error, &Warnings);
    if (!deliver(M, Warnings, Result < 0 ? &Error : nullptr))
      return PreservedAnalyses::all();
    return Result == 0 ? PreservedAnalyses::all() : PreservedAnalyses::none();
  }

  void printPipeline(raw_ostream &OS,
                     function_ref<StringRef(StringRef)> MapClassName2PassName) {
    OS << MapClassName2PassName(name());
    if (!Params.empty())
      OS << '<' << Params << '>';
  }
};

// More slots than passes; a registration beyond them is refused.
constexpr size_t MaxPasses = 16;

template <size_t Slot>
void addPassInSlot(ModulePassManager &MPM, RustPass Pass, StringRef Params) {
  MPM.addPass(OffloadModulePass<Slot>(std::move(Pass), Params));
}

template <size_t Slot> void addClassName(PassInstrumentationCallbacks &PIC) {
  if (Slot < passEntries().size())
    PIC.addClassToPassName(OffloadModulePass<Slot>::name(),
                           passEntries()[Slot].Name);
}

template <size_t... Slots>
constexpr auto makeSlotTables(std::index_sequence<Slots...>) {
  using AddPass = void (*)(ModulePassManager &, RustPass, StringRef);
  using AddName = void (*)(PassInstrumentationCallbacks &);
  return std::make_pair(std::array<AddPass, sizeof...(Slots)>{&addPassInSlot<Slots>...},
                        std::array<AddName, sizeof...(Slots)>{&addClassName<Slots>...});
}

const auto SlotTables = makeSlotTables(std::make_index_sequence<MaxPasses>());

// Parses `Name` (`pass` or `pass<params>`) as pass `Index`; adds it to MPM.
bool parseOffloadPass(size_t Index, StringRef Name, ModulePassManager &MPM) {
  StringRef PassName = passEntries()[Index].Name;
  // LLVM's pipeline parser splits the text at every ',', also inside '<>':
  // `pass<a,b>` arrives here as `pass<a` (then `b>`). Say so, rather than
  // letting the tool report "unknown pass name" alone.
  StringRef AfterName = Name;
  if (AfterName.consume_front(PassName) && AfterName.starts_with("<") &&
      !AfterName.ends_with(">")) {
    reportParseError((PassName + ": pass parameters must end with '>' and "
                                 "cannot contain ',' (LLVM's pipeline parser "
                                 "splits there); got '" +
                      Name + "...'")
                         .str());
    return false;
  }
  if (!PassBuilder::checkParametrizedPassName(Name, PassName))
    return false;
  StringRef Params = Name.drop_front(PassName.size());
  if (!Params.empty())
    Params = Params.drop_front().drop_back(); // strip '<' and '>'
  std::string Error;
  void *Pass = offload_passes_parse(Index, Params.data(), Params.size(), &Error);
  if (!Pass) {
    reportParseError(Error);
    return false;
  }
  SlotTables.first[Index](MPM, RustPass(Pass, offload_passes_drop), Params);
  return true;
}

// A pass that reports an error when it runs: an extension-point pipeline
// that cannot be added (the callback has no way to fail).
struct OffloadPipelineError : PassInfoMixin<OffloadPipelineError> {
  std::string Message;
  explicit OffloadPipelineError(std::string Message)
      : Message(std::move(Message)) {}
  static bool isRequired() { return true; }
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    reportPassError(M, Message);
    return PreservedAnalyses::all();
  }
};

// The extension-point variable whose pipeline this thread is parsing, if
// any (rustc builds pipelines on several threads at once).
thread_local const char *ParsingEnvironmentPipeline = nullptr;

// Adds the pipeline text of environment variable `Var` to MPM, if set.
void addPipelineFromEnvironment(PassBuilder &PB, ModulePassManager &MPM,
                                const char *Var) {
  const char *Text = std::getenv(Var);
  if (!Text || !*Text)
    return;
  // A pipeline like default<O1> runs the extension points itself: parsing
  // it here would add it again inside itself, without end.
  if (ParsingEnvironmentPipeline) {
    MPM.addPass(OffloadPipelineError(
        (Twine("offload-passes: ") + ParsingEnvironmentPipeline + "='" +
         std::getenv(ParsingEnvironmentPipeline) +
         "' builds a pipeline that runs the extension points again "
         "(reaching " +
         Var +
         "); name the passes to add (e.g. "
         "amdgpu-kernel-abi,byref-callee-copy), not a default<...> pipeline")
            .str()));
    return;
  }
  ParsingEnvironmentPipeline = Var;
  ModulePassManager Parsed;
  Error E = PB.parsePassPipeline(Parsed, Text);
  ParsingEnvironmentPipeline = nullptr;
  if (E) {
    MPM.addPass(OffloadPipelineError((Twine("offload-passes: cannot parse ") +
                                      Var + "='" + Text +
                                      "': " + toString(std::move(E)))
                                         .str()));
    return;
  }
  MPM.addPass(std::move(Parsed));
}

} // namespace

// The plugin's RegisterPassBuilderCallbacks; llvmGetPassPluginInfo (in Rust)
// points at it.
extern "C" void offload_passes_register_callbacks(PassBuilder &PB) {
  if (passEntries().size() > MaxPasses) {
    reportParseError("offload-passes: the plugin lists more passes than "
                     "shim.cpp has slots (MaxPasses); none registered");
    return;
  }
  if (PassInstrumentationCallbacks *PIC = PB.getPassInstrumentationCallbacks())
    for (auto AddName : SlotTables.second)
      AddName(*PIC);

  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        for (size_t I = 0; I < passEntries().size(); ++I)
          if (parseOffloadPass(I, Name, MPM))
            return true;
        return false;
      });

  PB.registerPipelineStartEPCallback(
      [&PB](ModulePassManager &MPM, OptimizationLevel) {
        addPipelineFromEnvironment(PB, MPM, "OFFLOAD_PASSES_PIPELINE_START");
      });
  PB.registerOptimizerLastEPCallback([&PB](ModulePassManager &MPM,
                                            OptimizationLevel,
                                            ThinOrFullLTOPhase Phase) {
    // Full LTO's post-link pipeline has no OptimizerLast: see below.
    if (Phase == ThinOrFullLTOPhase::None ||
        Phase == ThinOrFullLTOPhase::ThinLTOPostLink)
      addPipelineFromEnvironment(PB, MPM, "OFFLOAD_PASSES_OPTIMIZER_LAST");
  });
  PB.registerFullLinkTimeOptimizationLastEPCallback(
      [&PB](ModulePassManager &MPM, OptimizationLevel) {
        addPipelineFromEnvironment(PB, MPM, "OFFLOAD_PASSES_OPTIMIZER_LAST");
      });
}
