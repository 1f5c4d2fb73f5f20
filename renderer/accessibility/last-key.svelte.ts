/**
 * The last key pressed on the shopper screens, for the console's diagnostics: a technician setting
 * up a keypad presses a key and reads its name there, to put in accessibility.keys.*.
 */
class LastKey {
  key = $state<string | null>(null);

  saw(key: string) {
    this.key = key;
  }
}

export const lastKey = new LastKey();
