/** How many posts a page of a list holds (the forum's first page too, its first frame's included). */
export const PAGE_SIZE = 20;
