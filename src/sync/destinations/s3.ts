/** Object storage as a lake: not in this version yet; refused in one line rather than writing a folder `s3:`. */
import { LakeError, type Destination } from './destination.js';

export const S3Lake = {
  fromAddress(address: string): Destination {
    throw new LakeError(`${address}: writing a lake to S3 is not supported by this version of newsstats; sync into a local folder`);
  },
};
