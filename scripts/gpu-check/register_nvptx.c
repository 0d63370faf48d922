/* Registers LLVM's NVPTX target before main, so that libomptarget's JIT
   (which registers none) can compile an nvptx64 bitcode image. Weak: the
   functions come from the libLLVM.so.22.1 that libomptarget loads. */
extern void LLVMInitializeNVPTXTargetInfo(void) __attribute__((weak));
extern void LLVMInitializeNVPTXTarget(void) __attribute__((weak));
extern void LLVMInitializeNVPTXTargetMC(void) __attribute__((weak));
extern void LLVMInitializeNVPTXAsmPrinter(void) __attribute__((weak));
__attribute__((constructor)) static void register_nvptx(void) {
  if (LLVMInitializeNVPTXTarget) {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  }
}
