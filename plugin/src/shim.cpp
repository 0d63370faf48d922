// The C++ half of the plugin: only what needs C++. Every pass is a thin
// PassInfoMixin whose run() hands the module to Rust as an LLVMModuleRef; all
// pass logic lives in the Rust crate `offload_passes_core`.
//
// Registration:
//  * a pipeline-parsing callback per pass name from passes.def, accepting
//    `name` and `name<params>` (params are validated by Rust at parse time);
//  * addClassToPassName, so -print-pipeline-passes prints names that parse;
//  * opt-in extension points: OFFLOAD_PASSES_PIPELINE_START and
//    OFFLOAD_PASSES_OPTIMIZER_LAST hold a textual module pipeline that is
//    added at that point (how rustc runs the passes with only -Zllvm-plugins).

#include "llvm/IR/DiagnosticHandler.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm-c/Types.h"

#include <cstdlib>
#include <string>

using namespace llvm;

// Implemented in Rust (plugin/src/lib.rs).
extern "C" {
// Runs pass `name` on `module`. Returns 1 if the module changed, 0 if not, and
// -1 on error, after calling offload_passes_set_error(error, ...).
int offload_passes_run(const char *name, size_t name_len, const char *params,
                       size_t params_len, LLVMModuleRef module, void *error);
// Checks `params` for pass `name`; 0 if valid, else -1 with the error set.
int offload_passes_check_params(const char *name, size_t name_len,
                                const char *params, size_t params_len,
                                void *error);
}

// Called from Rust to hand an error message back to C++.
extern "C" void offload_passes_set_error(void *error, const char *msg,
                                         size_t len) {
  static_cast<std::string *>(error)->assign(msg, len);
}


namespace {

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
// its codegen threads are done (a fatal error in one codegen thread exits
// the process while others still run plugin code). The pass has left the
// module unchanged, so the pipeline may go on.
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

// One class per pass so that the pass-instrumentation name (used by
// -print-after, -debug-pass-manager, -print-pipeline-passes) is distinct.
template <typename Tag>
struct OffloadModulePass : PassInfoMixin<OffloadModulePass<Tag>> {
  std::string Params;

  explicit OffloadModulePass(StringRef Params) : Params(Params.str()) {}

  static StringRef name() { return Tag::ClassName; }
  // The ABI rewrites are needed for correctness, also at -O0 and under optnone.
  static bool isRequired() { return true; }

  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    std::string Error;
    int Result = offload_passes_run(Tag::PassName, std::strlen(Tag::PassName),
                                    Params.data(), Params.size(), wrap(&M),
                                    &Error);
    if (Result < 0) {
      reportPassError(M, Error);
      return PreservedAnalyses::all();
    }
    return Result == 0 ? PreservedAnalyses::all() : PreservedAnalyses::none();
  }

  void printPipeline(raw_ostream &OS,
                     function_ref<StringRef(StringRef)> MapClassName2PassName) {
    OS << MapClassName2PassName(name());
    if (!Params.empty())
      OS << '<' << Params << '>';
  }
};

#define OFFLOAD_MODULE_PASS(NAME, CLASS)                                       \
  struct CLASS##Tag {                                                          \
    static constexpr const char *PassName = NAME;                              \
    static constexpr const char *ClassName = #CLASS;                           \
  };
#include "passes.def"

// Parses `Name` (`pass` or `pass<params>`) for pass `Tag`; adds it to MPM.
template <typename Tag>
bool parseOffloadPass(StringRef Name, ModulePassManager &MPM) {
  // LLVM's pipeline parser splits the text at every ',', also inside '<>':
  // `pass<a,b>` arrives here as `pass<a` (then `b>`). Say so, rather than
  // letting opt report "unknown pass name".
  StringRef AfterName = Name;
  if (AfterName.consume_front(Tag::PassName) && AfterName.starts_with("<") &&
      !AfterName.ends_with(">"))
    report_fatal_error(Twine(Tag::PassName) +
                           ": pass parameters must end with '>' and cannot "
                           "contain ',' (LLVM's pipeline parser splits "
                           "there); got '" +
                           Name + "...'",
                       /*gen_crash_diag=*/false);
  if (!PassBuilder::checkParametrizedPassName(Name, Tag::PassName))
    return false;
  StringRef Params = Name.drop_front(std::strlen(Tag::PassName));
  if (!Params.empty())
    Params = Params.drop_front().drop_back(); // strip '<' and '>'
  std::string Error;
  if (offload_passes_check_params(Tag::PassName, std::strlen(Tag::PassName),
                                  Params.data(), Params.size(), &Error) != 0)
    report_fatal_error(Twine(Error), /*gen_crash_diag=*/false);
  MPM.addPass(OffloadModulePass<Tag>(Params));
  return true;
}

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
  if (ParsingEnvironmentPipeline)
    report_fatal_error(Twine("offload-passes: ") + ParsingEnvironmentPipeline +
                           "='" + std::getenv(ParsingEnvironmentPipeline) +
                           "' builds a pipeline that runs the extension "
                           "points again (reaching " +
                           Var +
                           "); name the passes to add (e.g. "
                           "amdgpu-kernel-abi,byref-callee-copy), not a "
                           "default<...> pipeline",
                       /*gen_crash_diag=*/false);
  ParsingEnvironmentPipeline = Var;
  Error E = PB.parsePassPipeline(MPM, Text);
  ParsingEnvironmentPipeline = nullptr;
  if (E)
    report_fatal_error(Twine("offload-passes: cannot parse ") + Var + "='" +
                           Text + "': " + toString(std::move(E)),
                       /*gen_crash_diag=*/false);
}

} // namespace

// The plugin's RegisterPassBuilderCallbacks; llvmGetPassPluginInfo (in Rust)
// points at it.
extern "C" void offload_passes_register_callbacks(PassBuilder &PB) {
  if (PassInstrumentationCallbacks *PIC = PB.getPassInstrumentationCallbacks()) {
#define OFFLOAD_MODULE_PASS(NAME, CLASS)                                       \
  PIC->addClassToPassName(OffloadModulePass<CLASS##Tag>::name(), NAME);
#include "passes.def"
  }

  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
#define OFFLOAD_MODULE_PASS(NAME, CLASS)                                       \
  if (parseOffloadPass<CLASS##Tag>(Name, MPM))                                 \
    return true;
#include "passes.def"
        return false;
      });

  PB.registerPipelineStartEPCallback(
      [&PB](ModulePassManager &MPM, OptimizationLevel) {
        addPipelineFromEnvironment(PB, MPM, "OFFLOAD_PASSES_PIPELINE_START");
      });
  PB.registerOptimizerLastEPCallback(
      [&PB](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase) {
        addPipelineFromEnvironment(PB, MPM, "OFFLOAD_PASSES_OPTIMIZER_LAST");
      });
}
