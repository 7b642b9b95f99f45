/** 2^17 entries of one bit: 16 KiB before compression, large enough that an index tells nothing about its holder. */
export const STATUS_LIST_SIZE = 2 ** 17;

/** List ids are random (they would otherwise count the lists issued): 16 base64url characters. */
export const STATUS_LIST_ID = /^[A-Za-z0-9_-]{16}$/;

/** The `uri` of a credential's status_list claim and the token's `sub` (Token Status List §5.1, §6.2). */
export const statusListUri = (baseUrl: string, listId: string) => `${baseUrl}/vci/status-lists/${listId}`;
