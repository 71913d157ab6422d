/*
 * The slow path every door trampoline takes once: it keeps the caller's argument registers, asks
 * door_loader_resolve (door_loader.c) for the real function and jumps to it with the arguments
 * untouched, so the call completes as if it had gone there directly (varargs included).
 * In: the DoorLibrary in r10 / x16, the function's index in r11 / x17.
 */
#if defined(__x86_64__)
    .text
    .globl door_loader_trampoline
    .hidden door_loader_trampoline
    .type door_loader_trampoline, @function
    .p2align 4
door_loader_trampoline:
    pushq %rbp                 /* the stack is now 16-byte aligned */
    movq %rsp, %rbp
    pushq %rdi
    pushq %rsi
    pushq %rdx
    pushq %rcx
    pushq %r8
    pushq %r9
    pushq %rax                 /* al: vector registers used by a varargs call */
    pushq %rax                 /* padding, keeps the alignment */
    subq $128, %rsp
    movdqu %xmm0, 0(%rsp)
    movdqu %xmm1, 16(%rsp)
    movdqu %xmm2, 32(%rsp)
    movdqu %xmm3, 48(%rsp)
    movdqu %xmm4, 64(%rsp)
    movdqu %xmm5, 80(%rsp)
    movdqu %xmm6, 96(%rsp)
    movdqu %xmm7, 112(%rsp)
    movq %r10, %rdi
    movl %r11d, %esi
    call door_loader_resolve
    movq %rax, %r11
    movdqu 0(%rsp), %xmm0
    movdqu 16(%rsp), %xmm1
    movdqu 32(%rsp), %xmm2
    movdqu 48(%rsp), %xmm3
    movdqu 64(%rsp), %xmm4
    movdqu 80(%rsp), %xmm5
    movdqu 96(%rsp), %xmm6
    movdqu 112(%rsp), %xmm7
    addq $128, %rsp
    popq %rax
    popq %rax
    popq %r9
    popq %r8
    popq %rcx
    popq %rdx
    popq %rsi
    popq %rdi
    popq %rbp
    jmp *%r11
    .size door_loader_trampoline, .-door_loader_trampoline
#elif defined(__aarch64__)
    .text
    .globl door_loader_trampoline
    .hidden door_loader_trampoline
    .type door_loader_trampoline, %function
    .p2align 2
door_loader_trampoline:
    stp x29, x30, [sp, #-224]!
    mov x29, sp
    stp x0, x1, [sp, #16]
    stp x2, x3, [sp, #32]
    stp x4, x5, [sp, #48]
    stp x6, x7, [sp, #64]
    str x8, [sp, #80]          /* indirect result location */
    stp q0, q1, [sp, #96]
    stp q2, q3, [sp, #128]
    stp q4, q5, [sp, #160]
    stp q6, q7, [sp, #192]
    mov x0, x16
    mov w1, w17
    bl door_loader_resolve
    mov x16, x0
    ldp q6, q7, [sp, #192]
    ldp q4, q5, [sp, #160]
    ldp q2, q3, [sp, #128]
    ldp q0, q1, [sp, #96]
    ldr x8, [sp, #80]
    ldp x6, x7, [sp, #64]
    ldp x4, x5, [sp, #48]
    ldp x2, x3, [sp, #32]
    ldp x0, x1, [sp, #16]
    ldp x29, x30, [sp], #224
    br x16
    .size door_loader_trampoline, .-door_loader_trampoline
#else
#error "door trampolines exist for x86_64 and aarch64 only (Modules/DoorLoader)"
#endif
    .section .note.GNU-stack,"",%progbits
