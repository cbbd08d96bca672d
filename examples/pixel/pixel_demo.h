/*
 * pixel_demo.h: the pixel example's driver in the lsk command (demo.c):
 * `lsk demo`, the default demo. argv as the command passes it ("demo"
 * first); returns the exit status. Built in lsk's tree only (it uses the
 * command's helpers, tools/common).
 */
#ifndef LSK_PIXEL_DEMO_H
#define LSK_PIXEL_DEMO_H

int pixel_demo(int argc, char **argv);

#endif /* LSK_PIXEL_DEMO_H */
