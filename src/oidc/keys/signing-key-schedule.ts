// The schedule is shared with the credential issuer's signer certificates (src/credential-issuer/keys).
export { keySchedule } from '../../common/keys/key-schedule.js';
