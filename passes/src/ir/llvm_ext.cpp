// The few LLVM operations the passes need that LLVM's C API lacks, as
// C functions over C API handles (declared for Rust in `ir/ffi.rs`, whose
// doc comments state each one's contract). Pass logic stays in Rust; each
// function here is one LLVM C++ call sequence.
//
// Every function takes untrusted IR: it checks kinds with dyn_cast, never
// cast (a release LLVM does not check a cast).

#include "llvm-c/Core.h"
#include "llvm-c/DebugInfo.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <cstring>
#include <type_traits>

using namespace llvm;

// AttributeSet has no raw-pointer form (AttributeList has one): the handle
// Rust keeps is its bytes, which is sound for a trivially copyable type of
// pointer size.
static_assert(sizeof(AttributeSet) == sizeof(void *) &&
                  std::is_trivially_copyable_v<AttributeSet>,
              "an AttributeSet handle is one pointer");

static void *attributeSetHandle(AttributeSet Set) {
  void *Handle;
  std::memcpy(&Handle, &Set, sizeof Handle);
  return Handle;
}

static AttributeSet attributeSetFromHandle(void *Handle) {
  AttributeSet Set;
  std::memcpy(&Set, &Handle, sizeof Set);
  return Set;
}

// True when every use of `V` (an alias, or a constant built on it) ends in
// @llvm.used or @llvm.compiler.used: uses that stay right when the alias
// becomes a function of the same type.
static bool onlyInUsedLists(const Value *V, unsigned Depth = 0) {
  if (Depth > 8)
    return false;
  for (const User *U : V->users()) {
    if (auto *GV = dyn_cast<GlobalVariable>(U)) {
      if (GV->getName() != "llvm.used" && GV->getName() != "llvm.compiler.used")
        return false;
      continue;
    }
    if (!isa<Constant>(U) || isa<GlobalValue>(U) ||
        !onlyInUsedLists(U, Depth + 1))
      return false;
  }
  return true;
}

extern "C" {

// One parameter of the new signature, as the Rust planner decided it
// (`ir/signature.rs` builds these).
struct offload_ir_new_param {
  // Attributes: those of old parameter `AttrsOf` when it is >= 0, else the
  // set `AttrSet` (from offload_ir_param_attribute_set; null: none).
  int AttrsOf;
  void *AttrSet;
  // Name: that of old parameter `NameOf` when it is >= 0, else
  // `Name[0..NameLen)` (empty: unnamed).
  int NameOf;
  const char *Name;
  size_t NameLen;
};

// A function of type `FnTy` that takes the place of `OldF`: created right
// before it in the module, with its linkage, address space and everything
// Function::copyAttributesFrom copies (calling convention, visibility,
// dso_local, unnamed_addr, section, partition, alignment, GC, personality,
// prefix and prologue data), its comdat, metadata and name, the old
// function and return attributes, and for each new parameter the attributes
// and name `Params` gives: one AttributeList built once, where the C API
// rebuilds the list for every attribute added. The body moves over; the
// old function is left without body or name, for the caller to retarget
// parameter uses and erase. Null when the arguments do not fit together.
LLVMValueRef offload_ir_replace_function(LLVMValueRef OldF, LLVMTypeRef FnTy,
                                         const offload_ir_new_param *Params,
                                         unsigned NumParams) {
  auto *Old = dyn_cast_or_null<Function>(unwrap(OldF));
  auto *Ty = dyn_cast_or_null<FunctionType>(unwrap(FnTy));
  if (!Old || !Ty || !Old->getParent() || Ty->getNumParams() != NumParams)
    return nullptr;
  const int OldCount = static_cast<int>(Old->arg_size());
  for (unsigned I = 0; I < NumParams; ++I)
    if (Params[I].AttrsOf >= OldCount || Params[I].NameOf >= OldCount)
      return nullptr;
  LLVMContext &Ctx = Old->getContext();
  Function *New = Function::Create(Ty, Old->getLinkage(),
                                   Old->getAddressSpace(), "");
  Old->getParent()->getFunctionList().insert(Old->getIterator(), New);
  New->copyAttributesFrom(Old);
  // (copyAttributesFrom leaves comdat membership to the caller.)
  New->setComdat(Old->getComdat());
  New->copyMetadata(Old, 0);
  AttributeList OldAttrs = Old->getAttributes();
  SmallVector<AttributeSet, 16> Sets;
  for (unsigned I = 0; I < NumParams; ++I) {
    const offload_ir_new_param &P = Params[I];
    Sets.push_back(P.AttrsOf >= 0 ? OldAttrs.getParamAttrs(P.AttrsOf)
                                  : attributeSetFromHandle(P.AttrSet));
  }
  New->setAttributes(AttributeList::get(Ctx, OldAttrs.getFnAttrs(),
                                        OldAttrs.getRetAttrs(), Sets));
  // Names are set, not moved with Value::takeName: every name access is a
  // lookup in the context-wide map from values to names, and takeName looks
  // both values up there several times besides its insert and erase, where
  // reading the name, setting it on the new value and dropping it with the
  // old one needs one lookup each. On large modules LLVM's pointer hash
  // fills parts of that map and a lookup can probe a long chain
  // (bench/README.md): at 100,000 kernels offload-wrap-kernels ran 12%
  // fewer instructions this way.
  for (unsigned I = 0; I < NumParams; ++I) {
    const offload_ir_new_param &P = Params[I];
    StringRef Name = P.NameOf >= 0 ? Old->getArg(P.NameOf)->getName()
                                   : StringRef(P.Name, P.NameLen);
    if (!Name.empty())
      New->getArg(I)->setName(Name);
  }
  New->splice(New->begin(), Old);
  // The function's name: dropped from the old function first, so the new
  // one gets it without a numeric suffix.
  SmallString<64> FnName(Old->getName());
  Old->setName("");
  New->setName(FnName);
  return wrap(New);
}

// A parameter attribute set made once, for any number of
// offload_ir_replace_function parameters: building a set sorts and uniques
// its attributes, which costs more than the rest of a parameter's rewrite.
// The handle is the AttributeSet's bytes (one pointer to the set's node,
// which is uniqued in the context and lives as long as it); null for no
// attributes.
void *offload_ir_param_attribute_set(LLVMContextRef C,
                                     const LLVMAttributeRef *Attrs,
                                     unsigned NumAttrs) {
  SmallVector<Attribute, 8> List;
  for (unsigned I = 0; I < NumAttrs; ++I)
    List.push_back(unwrap(Attrs[I]));
  return attributeSetHandle(AttributeSet::get(*unwrap(C), List));
}

// --- Plain metadata nodes (`!{i32 0, !1}`), read without wrapping each
// operand as a value (LLVMGetMDNodeOperands makes a MetadataAsValue per
// node operand).

// The number of operands of an MDNode; 0 for other metadata.
unsigned offload_ir_md_operand_count(LLVMMetadataRef MD) {
  auto *N = dyn_cast_or_null<MDNode>(unwrap(MD));
  return N ? N->getNumOperands() : 0;
}

// Operand I of an MDNode (null for a null operand or past the end).
LLVMMetadataRef offload_ir_md_operand(LLVMMetadataRef MD, unsigned I) {
  auto *N = dyn_cast_or_null<MDNode>(unwrap(MD));
  return N && I < N->getNumOperands() ? wrap(N->getOperand(I).get())
                                      : nullptr;
}

// An integer constant operand (`i32 3`) up to 64 bits wide: 1, with its
// value zero-extended in *Out; 0 for anything else.
int offload_ir_md_integer(LLVMMetadataRef MD, uint64_t *Out) {
  auto *C = mdconst::dyn_extract_or_null<ConstantInt>(unwrap(MD));
  if (!C || C->getBitWidth() > 64)
    return 0;
  *Out = C->getZExtValue();
  return 1;
}

// GlobalObject::getMetadata: the first attachment of kind `Kind` of a
// function or global, without copying every attachment out as the C API's
// LLVMGlobalCopyAllMetadata does. Null when there is none (or `G` is no
// global object).
LLVMMetadataRef offload_ir_global_metadata(LLVMValueRef G, unsigned Kind) {
  auto *GO = dyn_cast_or_null<GlobalObject>(unwrap(G));
  return GO ? wrap(GO->getMetadata(Kind)) : nullptr;
}

// --- Debug info, through the DI classes' own accessors (operand positions
// are theirs to change). Null when the node is not of the class asked for.

// DISubprogram::getType (a DISubroutineType).
LLVMMetadataRef offload_di_subprogram_type(LLVMMetadataRef SP) {
  auto *S = dyn_cast_or_null<DISubprogram>(unwrap(SP));
  return S ? wrap(dyn_cast_or_null<DISubroutineType>(S->getRawType()))
           : nullptr;
}

// The type list of a DISubroutineType (return type first), or of a
// DICompositeType's elements: the tuple, for offload_di_tuple_*.
LLVMMetadataRef offload_di_subroutine_types(LLVMMetadataRef T) {
  auto *S = dyn_cast_or_null<DISubroutineType>(unwrap(T));
  return S ? wrap(dyn_cast_or_null<MDTuple>(S->getRawTypeArray())) : nullptr;
}

LLVMMetadataRef offload_di_composite_elements(LLVMMetadataRef T) {
  auto *C = dyn_cast_or_null<DICompositeType>(unwrap(T));
  return C ? wrap(dyn_cast_or_null<MDTuple>(C->getRawElements())) : nullptr;
}

unsigned offload_di_tuple_size(LLVMMetadataRef Tuple) {
  auto *T = dyn_cast_or_null<MDTuple>(unwrap(Tuple));
  return T ? T->getNumOperands() : 0;
}

// Operand I of a tuple (null for a null operand or past the end).
LLVMMetadataRef offload_di_tuple_at(LLVMMetadataRef Tuple, unsigned I) {
  auto *T = dyn_cast_or_null<MDTuple>(unwrap(Tuple));
  return T && I < T->getNumOperands() ? wrap(T->getOperand(I).get()) : nullptr;
}

// The base type of a derived type (typedef, qualifier, pointer, member) or
// of a composite (an array's element type, an enum's underlying type).
LLVMMetadataRef offload_di_base_type(LLVMMetadataRef T) {
  Metadata *MD = unwrap(T);
  if (auto *D = dyn_cast_or_null<DIDerivedType>(MD))
    return wrap(dyn_cast_or_null<DIType>(D->getRawBaseType()));
  if (auto *C = dyn_cast_or_null<DICompositeType>(MD))
    return wrap(dyn_cast_or_null<DIType>(C->getRawBaseType()));
  return nullptr;
}

// 1 when the composite type has a variant part (a Rust enum): its storage
// is not a list of fields.
int offload_di_is_variant_part(LLVMMetadataRef T) {
  auto *C = dyn_cast_or_null<DICompositeType>(unwrap(T));
  return C && C->getTag() == dwarf::DW_TAG_variant_part;
}

// The Itanium (C++) demangling of a symbol, from malloc (LLVMDisposeMessage
// frees it), or null when the symbol is not a mangled C++ name: messages name
// a C++ function as its source does.
char *offload_ir_itanium_demangle(const char *Symbol, size_t Len) {
  return itaniumDemangle(std::string_view(Symbol, Len));
}

} // extern "C"

extern "C" {
// The DW_ATE_* encoding of a DIBasicType; 0 for anything else.
unsigned offload_di_basic_encoding(LLVMMetadataRef T) {
  auto *B = dyn_cast_or_null<DIBasicType>(unwrap(T));
  return B ? B->getEncoding() : 0;
}
} // extern "C"

extern "C" {
// 1 when a DISubprogram says its function was optimized (rustc and clang
// set the flag from the optimization level).
int offload_di_subprogram_is_optimized(LLVMMetadataRef SP) {
  auto *S = dyn_cast_or_null<DISubprogram>(unwrap(SP));
  return S && S->isOptimized();
}
} // extern "C"

extern "C" {
// The discriminator member of a DW_TAG_variant_part (Rust enums): the
// artificial member holding the tag, or the niche field's bytes.
LLVMMetadataRef offload_di_discriminator(LLVMMetadataRef VariantPart) {
  auto *C = dyn_cast_or_null<DICompositeType>(unwrap(VariantPart));
  return C ? wrap(dyn_cast_or_null<DIDerivedType>(C->getRawDiscriminator()))
           : nullptr;
}

// Clones `F`'s body into `New` (created by the caller, with `F`'s
// parameters leading), F's parameters mapped to New's first ones by
// position and named alike: CloneFunctionInto within the module, so the
// clone gets a DISubprogram of its own.
static void cloneBodyInto(Function *New, Function *F) {
  ValueToValueMapTy VMap;
  auto NewArg = New->arg_begin();
  for (Argument &Arg : F->args()) {
    NewArg->setName(Arg.getName());
    VMap[&Arg] = &*NewArg++;
  }
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(New, F, VMap, CloneFunctionChangeType::GlobalChanges,
                    Returns);
}

// The alias `AliasRef` of a defined function with the same type, made a
// function of its own: a clone of the aliasee's body (and, with
// CloneFunctionChangeType::GlobalChanges, of its DISubprogram, which one
// function alone may own; its linkage name becomes the new symbol) under the
// alias's name, linkage, visibility, DLL storage and dso_local, without
// unnamed_addr. This undoes what MergeFunctions does to two identical
// kernels. Null, with the module unchanged and `*Why` set, when it cannot:
// 1 when it is not an alias of a defined function, 2 when the alias's
// function type is not its aliasee's, 3 when something other than
// @llvm.used / @llvm.compiler.used uses the alias.
LLVMValueRef offload_ir_unmerge_alias(LLVMValueRef AliasRef, int *Why) {
  auto *A = dyn_cast_or_null<GlobalAlias>(unwrap(AliasRef));
  auto *F = A ? dyn_cast_or_null<Function>(A->getAliasee()) : nullptr;
  *Why = !F || F->isDeclaration()                     ? 1
         : F->getFunctionType() != A->getValueType() ? 2
         : !onlyInUsedLists(A)                        ? 3
                                                      : 0;
  if (*Why)
    return nullptr;
  Module *M = A->getParent();
  Function *New = Function::Create(F->getFunctionType(), A->getLinkage(),
                                   F->getAddressSpace(), "");
  M->getFunctionList().insertAfter(F->getIterator(), New);
  cloneBodyInto(New, F);
  // (CloneFunctionInto copied the aliasee's visibility and the rest of what
  // Function::copyAttributesFrom copies; the symbol is the alias's. Linkage
  // came with Function::Create, and the clone is in no comdat.)
  New->setVisibility(A->getVisibility());
  New->setDLLStorageClass(A->getDLLStorageClass());
  New->setDSOLocal(A->isDSOLocal());
  New->setUnnamedAddr(GlobalValue::UnnamedAddr::None);
  New->takeName(A);
  if (DISubprogram *SP = New->getSubprogram())
    SP->replaceLinkageName(MDString::get(New->getContext(), New->getName()));
  A->replaceAllUsesWith(New);
  A->eraseFromParent();
  return wrap(New);
}

} // extern "C"

extern "C" {

// SplitBlock: the instructions after `InstRef` move to a new block, which
// the old one branches to. Null when `InstRef` is no instruction in a block
// or is a terminator.
LLVMBasicBlockRef offload_ir_split_block_after(LLVMValueRef InstRef) {
  auto *I = dyn_cast_or_null<Instruction>(unwrap(InstRef));
  if (!I || !I->getParent() || I->isTerminator())
    return nullptr;
  BasicBlock *New = SplitBlock(I->getParent(), std::next(I->getIterator()),
                               static_cast<DominatorTree *>(nullptr));
  return wrap(New);
}

// InlineFunction on a direct call of a defined function: 1 when inlined,
// 0 (nothing changed) otherwise.
int offload_ir_inline_call(LLVMValueRef CallRef) {
  auto *CB = dyn_cast_or_null<CallBase>(unwrap(CallRef));
  if (!CB || !CB->getFunction())
    return 0;
  Function *Callee = CB->getCalledFunction();
  if (!Callee || Callee->isDeclaration() || Callee == CB->getFunction())
    return 0;
  InlineFunctionInfo IFI;
  return InlineFunction(*CB, IFI).isSuccess() ? 1 : 0;
}

// A clone of function `FnRef` of type `TyRef`, whose leading parameters
// have the old parameters' types and take their place, with internal
// linkage and name `Name[0..Len)`, right after the old function
// (CloneFunctionInto within the module: its own DISubprogram). Null when
// the types do not fit or `FnRef` is no defined function.
LLVMValueRef offload_ir_clone_function(LLVMValueRef FnRef, LLVMTypeRef TyRef,
                                       const char *Name, size_t Len) {
  auto *F = dyn_cast_or_null<Function>(unwrap(FnRef));
  auto *Ty = dyn_cast_or_null<FunctionType>(unwrap(TyRef));
  if (!F || !Ty || F->isDeclaration() || F->isVarArg() || Ty->isVarArg() ||
      Ty->getNumParams() < F->arg_size() ||
      Ty->getReturnType() != F->getReturnType())
    return nullptr;
  for (unsigned I = 0; I < F->arg_size(); ++I)
    if (Ty->getParamType(I) != F->getFunctionType()->getParamType(I))
      return nullptr;
  Function *New = Function::Create(Ty, GlobalValue::InternalLinkage,
                                   F->getAddressSpace(), StringRef(Name, Len));
  F->getParent()->getFunctionList().insertAfter(F->getIterator(), New);
  cloneBodyInto(New, F);
  New->setLinkage(GlobalValue::InternalLinkage);
  New->setVisibility(GlobalValue::DefaultVisibility);
  New->setComdat(nullptr);
  if (DISubprogram *SP = New->getSubprogram())
    SP->replaceLinkageName(MDString::get(New->getContext(), New->getName()));
  return wrap(New);
}

// The target machine of `F`'s module triple and `F`'s CPU and features,
// so that cost-model passes (the loop vectorizer) see the real vector
// registers; null when the host tool registered no such target (then the
// passes use LLVM's default, target-independent costs).
static std::unique_ptr<TargetMachine> targetMachineFor(const Function &F) {
  const Triple &TT = F.getParent()->getTargetTriple();
  std::string Err;
  const Target *T = TargetRegistry::lookupTarget(TT, Err);
  if (!T)
    return nullptr;
  std::string CPU = F.getFnAttribute("target-cpu").getValueAsString().str();
  std::string Features =
      F.getFnAttribute("target-features").getValueAsString().str();
  return std::unique_ptr<TargetMachine>(T->createTargetMachine(
      TT, CPU, Features, TargetOptions(), std::nullopt));
}

// Runs the function pipeline `Pipeline[0..Len)` (PassBuilder's text) on
// function `FnRef` alone, with the target information of its module's
// triple where the host tool registered that target. 1 when it ran; 0 for
// no defined function or a pipeline that does not parse.
int offload_ir_run_function_pipeline(LLVMValueRef FnRef, const char *Pipeline,
                                     size_t Len) {
  auto *F = dyn_cast_or_null<Function>(unwrap(FnRef));
  if (!F || F->isDeclaration())
    return 0;
  std::unique_ptr<TargetMachine> TM = targetMachineFor(*F);
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB(TM.get());
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  FunctionPassManager FPM;
  if (Error E = PB.parsePassPipeline(FPM, StringRef(Pipeline, Len))) {
    consumeError(std::move(E));
    return 0;
  }
  FPM.run(*F, FAM);
  return 1;
}

// The value instruction `PtrRef` (a pointer) is based on through
// getelementptrs of constant indices and casts, and the constant byte
// offset from it in `*Offset`; null when `PtrRef` is no instruction or the
// offset does not fit 64 bits.
LLVMValueRef offload_ir_strip_constant_offset(LLVMValueRef PtrRef,
                                              int64_t *Offset) {
  auto *I = dyn_cast_or_null<Instruction>(unwrap(PtrRef));
  if (!I || !I->getType()->isPointerTy() || !I->getFunction())
    return nullptr;
  const DataLayout &DL = I->getModule()->getDataLayout();
  APInt Bytes(DL.getIndexTypeSizeInBits(I->getType()), 0);
  const Value *Base =
      I->stripAndAccumulateConstantOffsets(DL, Bytes,
                                           /*AllowNonInbounds=*/true);
  if (Bytes.getSignificantBits() > 64)
    return nullptr;
  *Offset = Bytes.getSExtValue();
  return wrap(Base);
}

// The linkage name (else the name) of the subprogram enclosing debug scope
// `Scope`, its length in `*Len`; null when `Scope` is no scope or is in no
// subprogram. The bytes live as long as the context.
const char *offload_di_scope_subprogram_name(LLVMMetadataRef Scope,
                                             size_t *Len) {
  auto *S = dyn_cast_or_null<DILocalScope>(unwrap(Scope));
  DISubprogram *SP = S ? S->getSubprogram() : nullptr;
  if (!SP)
    return nullptr;
  StringRef Name = SP->getLinkageName();
  if (Name.empty())
    Name = SP->getName();
  *Len = Name.size();
  return Name.data();
}
} // extern "C"
