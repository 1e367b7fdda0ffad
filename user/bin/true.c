/*
 * true.c - does nothing, successfully (exit status 0).
 */
int
main(void)
{
	return 0;
}
