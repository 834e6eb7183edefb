import { maxLength, minLength, required, validate } from "./validate.mjs";

export const SIGNUP_RULES = {
  email: [required],
  username: [required, maxLength(20)],
  password: [required, minLength(8), maxLength(64)],
};

export function checkSignup(data) {
  return validate(data, SIGNUP_RULES);
}
