import torch


class CharVocab:
    def __init__(self, alphabet, specials=("<pad>", "<bos>", "<eos>")):
        self.itos = list(specials) + list(alphabet)
        self.stoi = {s: i for i, s in enumerate(self.itos)}

    def __len__(self):
        return len(self.itos)

    def add_tokens(self, tokens):
        added = [t for t in tokens if t not in self.stoi]
        for t in added:
            self.stoi[t] = len(self.itos)
            self.itos.append(t)
        return len(added)

    def encode(self, text, max_len):
        ids = [self.stoi["<bos>"]]
        i = 0
        while i < len(text) and len(ids) < max_len - 1:
            for tok in self.itos[3:]:
                if len(tok) > 1 and text.startswith(tok, i):
                    ids.append(self.stoi[tok])
                    i += len(tok)
                    break
            else:
                ids.append(self.stoi.get(text[i], 0))
                i += 1
        ids.append(self.stoi["<eos>"])
        ids += [self.stoi["<pad>"]] * (max_len - len(ids))
        return torch.tensor(ids)


@torch.inference_mode()
def add_new_tokens(model, vocab, new_tokens):
    """Grow the vocabulary and initialise new rows with the mean embedding."""
    old_size = len(vocab)
    if vocab.add_tokens(new_tokens) == 0:
        return model
    model.resize_token_embeddings(len(vocab), mean_resizing=False)
    emb = model.get_input_embeddings().weight
    emb[old_size:] = emb[:old_size].mean(dim=0, keepdim=True)
    return model
