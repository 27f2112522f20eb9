BASE_VOCAB_SIZE = 120

# domain terms added to the tokenizer, with the word pieces the
# original tokenizer split them into
DOMAIN_TERMS = {
    "[ECG]": [17, 42],
    "[EEG]": [17, 43, 88],
    "tachycardia": [61, 9, 77, 30],
    "bradycardia": [62, 9, 77, 30],
    "arrhythmia": [5, 71, 104],
    "[VITALS]": [99, 12],
}


def extended_vocab():
    terms = list(DOMAIN_TERMS)
    ids = {t: BASE_VOCAB_SIZE + i for i, t in enumerate(terms)}
    return ids, BASE_VOCAB_SIZE + len(terms)
