#include "textflag.h"

// func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL leaf+0(FP), AX
	MOVL sub+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func xgetbv() (eax, edx uint32)
TEXT ·xgetbv(SB), NOSPLIT, $0-8
	MOVL $0, CX
	XGETBV
	MOVL AX, eax+0(FP)
	MOVL DX, edx+4(FP)
	RET

// func addDenseAVX2(acc *int32, rows *int16, offs *uint32, n, width int)
//
// For each block of 32 (then 16) classes: load the block of acc into
// registers, add the sign-extended int16 weights of the block of every
// row, store the block.
TEXT ·addDenseAVX2(SB), NOSPLIT, $0-40
	MOVQ acc+0(FP), DI
	MOVQ rows+8(FP), SI
	MOVQ offs+16(FP), R8
	MOVQ n+24(FP), R9
	MOVQ width+32(FP), R10
	XORQ CX, CX // first class of the block

block32:
	LEAQ 32(CX), AX
	CMPQ AX, R10
	JGT  block16
	VMOVDQU 0(DI)(CX*4), Y0
	VMOVDQU 32(DI)(CX*4), Y1
	VMOVDQU 64(DI)(CX*4), Y2
	VMOVDQU 96(DI)(CX*4), Y3
	LEAQ (SI)(CX*2), R11 // rows + first class
	XORQ DX, DX
row32:
	MOVL (R8)(DX*4), AX
	VPMOVSXWD 0(R11)(AX*2), Y4
	VPMOVSXWD 16(R11)(AX*2), Y5
	VPMOVSXWD 32(R11)(AX*2), Y6
	VPMOVSXWD 48(R11)(AX*2), Y7
	VPADDD Y4, Y0, Y0
	VPADDD Y5, Y1, Y1
	VPADDD Y6, Y2, Y2
	VPADDD Y7, Y3, Y3
	INCQ DX
	CMPQ DX, R9
	JLT  row32
	VMOVDQU Y0, 0(DI)(CX*4)
	VMOVDQU Y1, 32(DI)(CX*4)
	VMOVDQU Y2, 64(DI)(CX*4)
	VMOVDQU Y3, 96(DI)(CX*4)
	ADDQ $32, CX
	JMP  block32

block16:
	CMPQ CX, R10
	JGE  done
	VMOVDQU 0(DI)(CX*4), Y0
	VMOVDQU 32(DI)(CX*4), Y1
	LEAQ (SI)(CX*2), R11
	XORQ DX, DX
row16:
	MOVL (R8)(DX*4), AX
	VPMOVSXWD 0(R11)(AX*2), Y4
	VPMOVSXWD 16(R11)(AX*2), Y5
	VPADDD Y4, Y0, Y0
	VPADDD Y5, Y1, Y1
	INCQ DX
	CMPQ DX, R9
	JLT  row16
	VMOVDQU Y0, 0(DI)(CX*4)
	VMOVDQU Y1, 32(DI)(CX*4)
	ADDQ $16, CX
	JMP  block16

done:
	VZEROUPPER
	RET

// func prefetchRows(base unsafe.Pointer, offs *uint32, n int, shift uint, bytes int)
//
// PREFETCHT0 of every cache line of the bytes bytes at base +
// offs[i]<<shift, for i < n. A prefetch never faults and retires without
// waiting for its data, so the misses of all n rows are in flight together.
TEXT ·prefetchRows(SB), NOSPLIT, $0-40
	MOVQ base+0(FP), SI
	MOVQ offs+8(FP), R8
	MOVQ n+16(FP), R9
	MOVQ shift+24(FP), CX
	MOVQ bytes+32(FP), R10
	XORQ DX, DX
	CMPQ DX, R9
	JGE  prdone
prrow:
	MOVL (R8)(DX*4), AX
	SHLQ CX, AX
	ADDQ SI, AX // the row's first byte
	LEAQ (AX)(R10*1), BX // its end
	ANDQ $~63, AX
prline:
	PREFETCHT0 (AX)
	ADDQ $64, AX
	CMPQ AX, BX
	JLT  prline
	INCQ DX
	CMPQ DX, R9
	JLT  prrow
prdone:
	RET

// func scaleSumsSSE2(dst *float32, src *int32, n int, scale float32)
//
// dst[i] = float32(src[i]) * scale for i < n, n a positive multiple of 4:
// CVTDQ2PS and MULPS round as CVTSI2SS and MULSS do, so the results are
// those of the scalar loop bit for bit. SSE2 is baseline on amd64.
TEXT ·scaleSumsSSE2(SB), NOSPLIT, $0-28
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVSS scale+24(FP), X2
	SHUFPS $0, X2, X2
	XORQ DX, DX
scloop:
	MOVOU (SI)(DX*4), X0
	CVTPL2PS X0, X0
	MULPS X2, X0
	MOVUPS X0, (DI)(DX*4)
	ADDQ $4, DX
	CMPQ DX, CX
	JLT  scloop
	RET
