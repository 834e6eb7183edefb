import { minLength, required, validate } from "./validate.mjs";

export const SIGNUP_RULES = {
  email: [required],
  password: [required, minLength(8)],
};

export function checkSignup(data) {
  return validate(data, SIGNUP_RULES);
}
