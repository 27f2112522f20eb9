class WordTokenizer:
    def __init__(self, words, bos="<|startoftext|>", eos="<|endoftext|>", pad="<|pad|>"):
        self.special = [pad, bos, eos]
        self.encoder = {w: i for i, w in enumerate(self.special + list(words))}
        self.bos_token_id = self.encoder[bos]
        self.eos_token_id = self.encoder[eos]
        self.pad_token_id = self.encoder[pad]

    def __len__(self):
        return len(self.encoder)

    def add_tokens(self, tokens):
        added = 0
        for t in tokens:
            if t not in self.encoder:
                self.encoder[t] = len(self.encoder)
                added += 1
        return added

    def tokenize(self, text):
        return [w for w in text.lower().split() if w]

    def convert_tokens_to_ids(self, tokens):
        return [self.encoder.get(t, self.pad_token_id) for t in tokens]

    def __call__(self, texts, max_length):
        rows = []
        for text in texts:
            ids = [self.bos_token_id] + self.convert_tokens_to_ids(self.tokenize(text))[: max_length - 2]
            ids = ids + [self.eos_token_id]
            rows.append(ids + [self.pad_token_id] * (max_length - len(ids)))
        return rows
