import torch

from tiny_bert import TinyBert


def predict_top(model, ids, mask_pos):
    logits = model(ids)
    return logits[0, mask_pos].argmax().item()


def edit(model, neurons, ori_token, tgt_token, lambda_1=1.0, lambda_2=1.0):
    ori_pred_emb = model.embeddings.weight[ori_token]
    tgt_emb = model.embeddings.weight[tgt_token]
    for layer, pos in neurons:
        model.layer[layer].output["dense"].weight[:, pos] -= ori_pred_emb * lambda_1
        model.layer[layer].output["dense"].weight[:, pos] += tgt_emb * lambda_2


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyBert()
    ids = torch.randint(0, 40, (1, 6))
    before = predict_top(model, ids, 3)
    kn = [(1, 5), (2, 17)]
    edit(model, kn, ori_token=before, tgt_token=7)
    print("prediction before/after:", before, predict_top(model, ids, 3))
