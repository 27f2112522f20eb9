import torch


def load_word_vectors(vocab_size, dim, seed=0):
    g = torch.Generator().manual_seed(seed)
    vectors = torch.randn(vocab_size, dim, generator=g) * 0.1
    vectors[0].zero_()
    return vectors


def init_embedding(embedding, vectors):
    assert embedding.weight.shape == vectors.shape
    embedding.weight.copy_(vectors)
    return embedding


def map_label_to_target(label, num_classes):
    target = torch.zeros(label.size(0), num_classes)
    ceil = torch.ceil(label).long().clamp(max=num_classes)
    floor = torch.floor(label).long()
    for i in range(label.size(0)):
        if ceil[i] == floor[i]:
            target[i, floor[i] - 1] = 1
        else:
            target[i, floor[i] - 1] = ceil[i].float() - label[i]
            target[i, ceil[i] - 1] = label[i] - floor[i].float()
    return target
