/* The two application images, placed at their slots by mps2_an385.ld. */
	.section .slot_a, "a"
	.incbin "slot_a.bin"
	.section .slot_b, "a"
	.incbin "slot_b.bin"
