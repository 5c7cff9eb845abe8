#include "textflag.h"

// func top4(p *float32, n int) (m1, m2 float32)
// n is a positive multiple of 4. Returns the largest and second largest
// of p[:n], counting repeats: four lanes each keep the largest (X0) and
// second largest (X1) of their values, then pairs of lanes are merged
// twice:
// a, b with a', b' -> max(a, a'), max(b, b', min(a, a')).
TEXT ·top4(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	MOVL $0xff800000, AX // -Inf
	MOVQ AX, X1
	PSHUFD $0, X1, X1    // X1 = second largest per lane = -Inf
	MOVUPS (SI), X0      // X0 = largest per lane = the first four
	ADDQ $16, SI
	SUBQ $4, CX
loop:
	CMPQ CX, $0
	JLE reduce
	MOVUPS (SI), X2
	MOVAPS X0, X3
	MINPS X2, X3         // min(a, x)
	MAXPS X3, X1         // b = max(b, min(a, x))
	MAXPS X2, X0         // a = max(a, x)
	ADDQ $16, SI
	SUBQ $4, CX
	JMP loop
reduce:
	// Lanes 0,1 with lanes 2,3.
	PSHUFD $0x4e, X0, X2 // a' = lanes 2,3,0,1 of a
	PSHUFD $0x4e, X1, X3 // b'
	MAXPS X3, X1         // max(b, b')
	MOVAPS X0, X4
	MINPS X2, X4         // min(a, a')
	MAXPS X4, X1
	MAXPS X2, X0
	// Lane 0 with lane 1.
	PSHUFD $0xb1, X0, X2 // lanes 1,0,3,2
	PSHUFD $0xb1, X1, X3
	MAXPS X3, X1
	MOVAPS X0, X4
	MINPS X2, X4
	MAXPS X4, X1
	MAXPS X2, X0
	MOVSS X0, m1+16(FP)
	MOVSS X1, m2+20(FP)
	RET
